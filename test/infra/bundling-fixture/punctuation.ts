export const punctuate = (text: string): string => `${text}!`;
