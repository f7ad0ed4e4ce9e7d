import { SearchScreen } from './SearchScreen.tsx';

/** /search and /search-next. */
export function SearchPage() {
  return <SearchScreen />;
}
