export * from './operators.ts';
export * from './rules.ts';
