import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { Alert, Anchor, Badge, Button, Group, Menu, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconArrowLeft,
  IconBookmark,
  IconChevronDown,
  IconDeviceFloppy,
  IconSearch,
  IconShare,
  IconTrash,
  IconX,
} from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import {
  defaultFilterForm,
  isEmptyFilter,
  normalizeFilter,
  parseFilter,
  type FilterForm,
} from '../../src/filters/index.ts';
import { Q, type SavedFeed, type SearchLayout } from '../api.ts';
import { ChoiceCache, ChoiceContext } from '../filter/choices.ts';
import { FilterBuilder } from '../filter/FilterBuilder.tsx';
import { ValueInput } from '../filter/ValueInput.tsx';
import { SaveFeedDialog, type SaveFeedValues } from '../feeds/SaveFeedDialog.tsx';
import { Results } from '../results/Results.tsx';
import { decodeState, emptyState, encodeState, resultTypesOf, tabForTypes, type SearchState } from '../state.ts';
import { describeError, PageFrame } from '../ui/frame.tsx';
import { useSearch } from './useSearch.ts';

/** A saved feed's search as screen state; its filter is shown as saved (blank forms were dropped). */
export function stateOfFeed(feed: SavedFeed): SearchState {
  let filter: FilterForm;
  try {
    filter = parseFilter(feed.filter) ?? { combinator: 'and', forms: [] };
  } catch {
    filter = defaultFilterForm();
  }
  return {
    query: feed.query ?? '',
    tab: tabForTypes(feed.resultTypes),
    filter,
    projectIds: feed.projectIds,
    projectCategoryIds: feed.projectCategoryIds,
  };
}

/** What a feed saves of the screen: text, filter, the tab's types and the scope. */
const feedInput = (state: SearchState) => ({
  query: state.query.trim() || null,
  filter: state.filter,
  resultTypes: resultTypesOf(state.tab),
  projectIds: state.projectIds,
  projectCategoryIds: state.projectCategoryIds,
});

/** Whether two states search for the same thing (blank forms and spacing aside). */
const sameSearch = (a: SearchState, b: SearchState) =>
  JSON.stringify({ ...feedInput(a), filter: normalizeFilter(a.filter) }) ===
  JSON.stringify({ ...feedInput(b), filter: normalizeFilter(b.filter) });

/**
 * The search screen (000 §2): search text, tabs with counts, grid or list, and the filter form.
 * Everything that shapes the search lives in the URL hash, so a copied link opens the same
 * search. With a feed it opens that feed's search and can save changes back to it.
 */
export function SearchScreen({ feed, onFeedChange }: { feed?: SavedFeed; onFeedChange?(feed: SavedFeed): void }) {
  const host = useFieldbook();
  const can = (p: string) => host.permissions.includes(p);
  const location = useLocation();
  const navigate = useNavigate();
  const cache = useMemo(() => new ChoiceCache(host.graphql), [host.graphql]);

  const [initial] = useState(() => decodeState(location.hash));
  const [state, setState] = useState<SearchState>(() => initial?.state ?? (feed ? stateOfFeed(feed) : emptyState()));
  const [linkProblem, setLinkProblem] = useState<string | null>(initial?.problem ?? null);
  const written = useRef<string | null>(null);

  // State → hash (replacing the entry: typing is not history). The blank search has no hash.
  useEffect(() => {
    const blank = feed ? sameSearch(state, stateOfFeed(feed)) : encodeState(state) === encodeState(emptyState());
    const hash = blank ? '' : encodeState(state);
    written.current = hash;
    if (location.hash.replace(/^#/, '') !== hash)
      navigate({ pathname: location.pathname, search: location.search, hash }, { replace: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state]);
  // Hash → state, when a link to this same page is followed.
  useEffect(() => {
    const hash = location.hash.replace(/^#/, '');
    if (written.current === null || hash === written.current) return;
    const decoded = decodeState(hash);
    written.current = hash;
    setState(decoded?.state ?? (feed ? stateOfFeed(feed) : emptyState()));
    setLinkProblem(decoded?.problem ?? null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [location.hash]);

  const { answer, loading, error, retry, more } = useSearch(state);
  const [layout, setLayout] = useState<SearchLayout>('LIST');
  useEffect(() => {
    let live = true;
    host.graphql<{ searchLayout: SearchLayout }>(Q.layout).then(
      (d) => live && setLayout(d.searchLayout),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [host]);
  const changeLayout = (next: SearchLayout) => {
    setLayout(next);
    host.graphql(Q.setLayout, { layout: next }).catch((err: unknown) =>
      notifications.show({
        color: 'red',
        title: 'Layout not remembered',
        message: `${describeError(err).message} The layout applies until you leave the page.`,
      }),
    );
  };

  const [saving, setSaving] = useState<'new' | null>(null);
  const canShare = !isEmptyFilter(state.filter);
  const dirty = feed ? !sameSearch(state, stateOfFeed(feed)) : false;
  const update = (patch: Partial<SearchState>) => setState((s) => ({ ...s, ...patch }));

  const createFeed = async (values: SaveFeedValues) => {
    const { createSavedFeed } = await host.graphql<{ createSavedFeed: SavedFeed }>(Q.createFeed, {
      input: { ...values, ...feedInput(state) },
    });
    setSaving(null);
    notifications.show({ color: 'teal', message: `Saved “${createSavedFeed.title}” to your feeds.` });
    navigate(`/explore/${createSavedFeed.id}`);
  };
  const [savingChanges, setSavingChanges] = useState(false);
  const saveChanges = async () => {
    if (!feed) return;
    setSavingChanges(true);
    try {
      const { updateSavedFeed } = await host.graphql<{ updateSavedFeed: SavedFeed }>(Q.updateFeed, {
        id: feed.id,
        input: feedInput(state),
      });
      notifications.show({ color: 'teal', message: `Saved the changes to “${updateSavedFeed.title}”.` });
      // The page now shows the saved feed as it is: no hash, and no reload of the state from one.
      written.current = '';
      onFeedChange?.(updateSavedFeed);
      navigate({ pathname: location.pathname, hash: '' }, { replace: true });
    } catch (err) {
      notifications.show({ color: 'red', title: 'Changes not saved', message: describeError(err).message });
    } finally {
      setSavingChanges(false);
    }
  };
  const toggleShared = async () => {
    if (!feed) return;
    try {
      const { updateSavedFeed } = await host.graphql<{ updateSavedFeed: SavedFeed }>(Q.updateFeed, {
        id: feed.id,
        input: { shared: !feed.shared },
      });
      notifications.show({
        color: 'teal',
        message: updateSavedFeed.shared
          ? 'The feed is now listed for the whole workspace.'
          : 'The feed is now yours alone.',
      });
      onFeedChange?.(updateSavedFeed);
    } catch (err) {
      notifications.show({ color: 'red', title: 'Sharing not changed', message: describeError(err).message });
    }
  };
  const deleteFeed = async () => {
    if (!feed || !window.confirm(`Delete the feed “${feed.title}”? The notes and insights it finds stay as they are.`))
      return;
    try {
      await host.graphql(Q.deleteFeed, { id: feed.id });
      notifications.show({ color: 'teal', message: `Deleted “${feed.title}”.` });
      navigate('/explore');
    } catch (err) {
      notifications.show({ color: 'red', title: 'Feed not deleted', message: describeError(err).message });
    }
  };

  const narrowed =
    Boolean(state.query.trim()) ||
    !isEmptyFilter(state.filter) ||
    state.projectIds.length > 0 ||
    state.projectCategoryIds.length > 0;
  const actions = feed ? (
    <>
      {feed.isOwn && dirty && (
        <Button
          leftSection={<IconDeviceFloppy size={16} aria-hidden />}
          onClick={() => void saveChanges()}
          loading={savingChanges}
        >
          Save changes
        </Button>
      )}
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button variant="default" rightSection={<IconChevronDown size={14} aria-hidden />}>
            Feed
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item leftSection={<IconBookmark size={14} aria-hidden />} onClick={() => setSaving('new')}>
            Save as a new feed
          </Menu.Item>
          {feed.isOwn && (
            <Menu.Item
              leftSection={<IconShare size={14} aria-hidden />}
              onClick={() => void toggleShared()}
              disabled={!feed.shared && isEmptyFilter(stateOfFeed(feed).filter)}
            >
              {feed.shared ? 'Stop sharing' : 'Share with the workspace'}
            </Menu.Item>
          )}
          {feed.canDelete && (
            <Menu.Item color="red" leftSection={<IconTrash size={14} aria-hidden />} onClick={() => void deleteFeed()}>
              Delete feed
            </Menu.Item>
          )}
        </Menu.Dropdown>
      </Menu>
    </>
  ) : (
    <Button leftSection={<IconBookmark size={16} aria-hidden />} variant="light" onClick={() => setSaving('new')}>
      Save as feed
    </Button>
  );

  return (
    <ChoiceContext.Provider value={cache}>
      <PageFrame
        title={feed ? feed.title : 'Search'}
        eyebrow={
          feed ? (
            <Anchor
              component={Link}
              to="/explore"
              size="sm"
              c="dimmed"
              mb={6}
              style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
            >
              <IconArrowLeft size={14} aria-hidden /> Explore
            </Anchor>
          ) : undefined
        }
        description={
          feed ? (
            <Group gap={8}>
              <span>
                Saved feed{feed.createdBy && !feed.isOwn ? ` by ${feed.createdBy.name || 'a former member'}` : ''}
              </span>
              {feed.shared && (
                <Badge size="sm" variant="light" color="teal" radius="sm">
                  Shared with the workspace
                </Badge>
              )}
              {dirty && (
                <Badge size="sm" variant="light" color="orange" radius="sm">
                  {feed.isOwn ? 'Unsaved changes' : 'Changed here only'}
                </Badge>
              )}
            </Group>
          ) : (
            <Group gap={8}>
              <span>Find notes, insights, highlights, tags, projects and contacts across the workspace.</span>
              {can('workspace:admin') && (
                <Anchor component={Link} to="/search/index" size="sm">
                  Search index
                </Anchor>
              )}
            </Group>
          )
        }
        actions={actions}
      >
        <Stack gap="md">
          {linkProblem && (
            <Alert
              color="orange"
              variant="light"
              title="Part of this link could not be read"
              withCloseButton
              onClose={() => setLinkProblem(null)}
              closeButtonLabel="Dismiss"
            >
              {linkProblem} The search below starts from the default filter instead.
            </Alert>
          )}
          <TextInput
            size="md"
            type="search"
            aria-label="Search text"
            placeholder="Search by words or “an exact phrase”"
            leftSection={<IconSearch size={18} aria-hidden />}
            rightSection={
              state.query ? (
                <Button
                  variant="subtle"
                  color="gray"
                  size="compact-xs"
                  px={4}
                  aria-label="Clear search text"
                  onClick={() => update({ query: '' })}
                >
                  <IconX size={14} aria-hidden />
                </Button>
              ) : undefined
            }
            value={state.query}
            onChange={(e) => update({ query: e.currentTarget.value })}
            maxLength={2000}
            autoFocus={!feed}
          />
          {can('projects:read') && (
            <Group gap="sm" wrap="wrap" align="center" aria-label="Where to search" role="group">
              <ScopeInput
                label="Projects to search"
                placeholder="All projects"
                operand="projectMultiselect"
                ids={state.projectIds}
                onChange={(ids) => update({ projectIds: ids })}
              />
              <ScopeInput
                label="Folders to search"
                placeholder="All folders"
                operand="folderMultiselect"
                ids={state.projectCategoryIds}
                onChange={(ids) => update({ projectCategoryIds: ids })}
              />
            </Group>
          )}
          <FilterBuilder filter={state.filter} onChange={(filter) => update({ filter })} can={can} />
        </Stack>
        <Results
          tab={state.tab}
          onTab={(tab) => update({ tab })}
          layout={layout}
          onLayout={changeLayout}
          answer={answer}
          loading={loading}
          error={error}
          onRetry={retry}
          onMore={more}
          narrowed={narrowed}
        />
        {saving && (
          <SaveFeedDialog
            opened
            onClose={() => setSaving(null)}
            onSave={createFeed}
            canShare={canShare}
            initial={{ title: feed ? `${feed.title} (copy)` : state.query.trim().slice(0, 200) }}
            heading={feed ? 'Save as a new feed' : 'Save as feed'}
          />
        )}
      </PageFrame>
    </ChoiceContext.Provider>
  );
}

function ScopeInput({
  label,
  placeholder,
  operand,
  ids,
  onChange,
}: {
  label: string;
  placeholder: string;
  operand: 'projectMultiselect' | 'folderMultiselect';
  ids: string[];
  onChange(ids: string[]): void;
}) {
  return (
    <div style={{ flex: '1 1 260px', minWidth: 220, display: 'flex' }}>
      <ValueInput
        operand={operand}
        value={ids}
        onChange={(v) => onChange(Array.isArray(v) ? v : [])}
        label={label}
        placeholder={placeholder}
      />
    </div>
  );
}
