import { greeting } from './greeting.ts';

export const shout = (name: string): string => greeting(name).toUpperCase();
