/** Types of check-node-version.js, which stays plain JavaScript so that any Node can run it. */
export declare function nodeVersionProblem(found: string, required: string): string | undefined;
