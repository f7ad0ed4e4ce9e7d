import {
  Button,
  Center,
  Group,
  Loader,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { IconLayoutGrid, IconList, IconSearch } from '@tabler/icons-react';
import type { SearchAnswer, SearchLayout } from '../api.ts';
import { OPTIONAL_TABS, TABS, type TabKey } from '../state.ts';
import { EmptyState, ErrorNote } from '../ui/frame.tsx';
import './results.css';
import { countText, resultsText } from './count.ts';
import { HitCard } from './HitCard.tsx';

export interface ResultsProps {
  tab: TabKey;
  onTab(tab: TabKey): void;
  layout: SearchLayout;
  onLayout(layout: SearchLayout): void;
  answer: SearchAnswer | null;
  loading: boolean;
  error: unknown;
  onRetry(): void;
  onMore(): void;
  /** Whether any text or condition narrows the search (for the empty state's words). */
  narrowed: boolean;
}

/** The tabs of 000 §2 with their counts, the grid or list toggle, and the hits of the tab shown. */
export function Results(props: ResultsProps) {
  const { tab, onTab, answer } = props;
  const countOf = (key: TabKey): { count: number; isEstimate: boolean } | null => {
    if (!answer) return null;
    const type = TABS.find((t) => t.key === key)!.type;
    if (type === null) return { count: answer.counts.totalCount, isEstimate: answer.counts.totalIsEstimate };
    return answer.counts.countsByType.find((c) => c.type === type) ?? { count: 0, isEstimate: false };
  };
  const tabs = TABS.filter((t) => !OPTIONAL_TABS.includes(t.key) || t.key === tab || (countOf(t.key)?.count ?? 0) > 0);

  return (
    <Tabs value={tab} onChange={(v) => v && onTab(v as TabKey)} mt="lg">
      <Tabs.List aria-label="Result types" style={{ flexWrap: 'nowrap', overflowX: 'auto', overflowY: 'hidden' }}>
        {tabs.map((t) => {
          const count = countOf(t.key);
          return (
            <Tabs.Tab
              key={t.key}
              value={t.key}
              rightSection={
                count === null ? undefined : (
                  <span className={t.key === tab ? 'search-count search-count-active' : 'search-count'}>
                    {countText(count.count, count.isEstimate)}
                    <VisuallyHidden> {count.count === 1 && !count.isEstimate ? 'result' : 'results'}</VisuallyHidden>
                  </span>
                )
              }
            >
              {t.label}
            </Tabs.Tab>
          );
        })}
      </Tabs.List>
      {tabs.map((t) => (
        <Tabs.Panel key={t.key} value={t.key} pt="md">
          {t.key === tab && <ResultsPanel {...props} />}
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}

/** The count line with the layout toggle, then the hits of the tab shown. */
function ResultsPanel({ layout, onLayout, answer, loading, error, onRetry, onMore, narrowed }: ResultsProps) {
  const hits = answer?.results.hits ?? [];
  const total = answer?.results.totalCount ?? 0;
  const totalIsEstimate = answer?.results.totalIsEstimate ?? false;
  return (
    <Stack gap="sm">
      <Group justify="space-between" mih={24}>
        <Text size="sm" c="dimmed" role="status" aria-live="polite">
          {loading ? 'Searching…' : answer ? resultsText(total, totalIsEstimate) : ''}
        </Text>
        <Group gap="sm">
          {loading && answer && <Loader size="xs" aria-hidden />}
          <SegmentedControl
            size="xs"
            aria-label="Result layout"
            value={layout}
            onChange={(v) => onLayout(v as SearchLayout)}
            data={[
              {
                value: 'LIST',
                label: (
                  <Center style={{ gap: 6 }}>
                    <IconList size={14} aria-hidden />
                    <span>List</span>
                  </Center>
                ),
              },
              {
                value: 'GRID',
                label: (
                  <Center style={{ gap: 6 }}>
                    <IconLayoutGrid size={14} aria-hidden />
                    <span>Grid</span>
                  </Center>
                ),
              },
            ]}
          />
        </Group>
      </Group>
      {error ? <ErrorNote error={error} onRetry={onRetry} /> : null}
      {!answer && loading && (
        <Center py="xl">
          <Loader size="sm" aria-hidden />
          <VisuallyHidden>Searching…</VisuallyHidden>
        </Center>
      )}
      {answer && hits.length === 0 && !error && (
        <EmptyState
          icon={<IconSearch size={22} />}
          title={narrowed ? 'Nothing matches this search' : 'Nothing here yet'}
        >
          {narrowed
            ? 'Try fewer or different words, another tab, or remove a condition from the filter.'
            : 'Notes, insights, highlights, tags, projects and contacts show up here as your team adds them.'}
        </EmptyState>
      )}
      {hits.length > 0 &&
        (layout === 'GRID' ? (
          <SimpleGrid
            cols={{ base: 1, sm: 2, md: 3 }}
            spacing="sm"
            component="ul"
            aria-label="Search results"
            style={{ listStyle: 'none', padding: 0, margin: 0 }}
          >
            {hits.map((hit) => (
              <li key={`${hit.type}:${hit.id}`}>
                <HitCard hit={hit} layout="GRID" />
              </li>
            ))}
          </SimpleGrid>
        ) : (
          <Stack
            gap="xs"
            component="ul"
            aria-label="Search results"
            style={{ listStyle: 'none', padding: 0, margin: 0 }}
          >
            {hits.map((hit) => (
              <li key={`${hit.type}:${hit.id}`}>
                <HitCard hit={hit} layout="LIST" />
              </li>
            ))}
          </Stack>
        ))}
      {hits.length > 0 && hits.length < total && (
        <Group justify="center">
          <Button variant="default" onClick={onMore} loading={loading}>
            Show more results
          </Button>
        </Group>
      )}
    </Stack>
  );
}
