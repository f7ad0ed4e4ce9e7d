/** The filter builder for other screens that keep a filter form (project views): the search screen's own. */
export { FilterBuilder, type FilterBuilderProps } from './FilterBuilder.tsx';
export { ChoiceCache, ChoiceContext } from './choices.ts';
