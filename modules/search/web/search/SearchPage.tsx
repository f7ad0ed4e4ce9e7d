import { Box } from '@mantine/core';
import { AskBox } from '@fieldbook/ai/web/ask';
import { SearchScreen } from './SearchScreen.tsx';

/** /search and /search-next. */
export function SearchPage() {
  return (
    <>
      <Box px="md" pt="md">
        <AskBox />
      </Box>
      <SearchScreen />
    </>
  );
}
