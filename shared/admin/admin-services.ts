import type { ConfigCaches } from '../pipeline/config-caches.ts';
import type {
  AuditTrail,
  Clock,
  KeyStore,
  MembershipStore,
  OrgRateCardStore,
  ProjectBalanceStore,
  ProjectAdminStore,
  ProjectConfigSource,
  ProviderSecrets,
  RandomBytes,
} from '../core/ports.ts';

export interface AdminServices {
  keys: KeyStore;
  projects: ProjectConfigSource & ProjectAdminStore & OrgRateCardStore;
  secrets: ProviderSecrets;
  balances: ProjectBalanceStore;
  memberships: MembershipStore;
  audit: AuditTrail;
  clock: Clock;
  randomBytes: RandomBytes;
  /** The caches of this process, invalidated after every write so the change applies here at once. */
  caches: ConfigCaches;
  allowPrivateUpstreams: boolean;
}
