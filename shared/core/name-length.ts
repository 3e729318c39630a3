/**
 * The most characters a project's or key's name may have: a label for listings, not a document. Plain data
 * (no zod), so the console's page can bound its name field with it too.
 */
export const MAX_NAME_LENGTH = 200;
