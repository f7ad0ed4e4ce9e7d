/**
 * The search module's filter model (000 §3-§5, §7, §9; 002 §5): filter forms, the operators each
 * field allows, normalisation, input parsing and the engine-neutral compiler. Pure TypeScript,
 * shared by the server and the web app.
 */
export * from './errors.ts';
export * from './fields.ts';
export * from './operands.ts';
export * from './operators.ts';
export * from './form.ts';
export * from './defaults.ts';
export * from './normalize.ts';
export * from './options.ts';
export * from './parse.ts';
export * from './query.ts';
export * from './params.ts';
export * from './search-types.ts';
export * as predicates from './compile/predicate.ts';
export type { Predicate, Scalar } from './compile/predicate.ts';
export * from './compile/attributes.ts';
export * from './compile/compile-form.ts';
export * from './compile/compile-search.ts';
