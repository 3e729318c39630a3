import { afterAll } from 'vitest';
import { removeTemporaryDirectories } from './temporary-directories.ts';

// Runs after each test file's own afterAll hooks (setup files' hooks are registered first, so they run last).
afterAll(removeTemporaryDirectories);
