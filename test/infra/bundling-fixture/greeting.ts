export const greeting = (name: string): string => `hello ${name}`;
