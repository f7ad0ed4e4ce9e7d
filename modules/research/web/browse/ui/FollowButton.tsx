import { ActionIcon, Button, Checkbox, Group, Popover, Select, Stack, Text, Tooltip } from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { IconBell, IconBellRinging, IconChevronDown } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { notifyError } from './layout.tsx';

type FollowType = 'PROJECT' | 'INSIGHT' | 'TAG';
type OptionKey = 'allChangesEnabled' | 'insightsPublishedEnabled' | 'allCommentsEnabled';
type Frequency = 'DAILY' | 'WEEKLY' | 'MONTHLY';
type Follow = { frequency: Frequency } & Record<OptionKey, boolean>;

const FIELDS = 'frequency allChangesEnabled insightsPublishedEnabled allCommentsEnabled';
const GET = `query BrowseFollow($t: FollowObjectType!, $id: ID!) { follow(objectType: $t, objectId: $id) { ${FIELDS} } followOptions(objectType: $t) { key label } }`;
const FOLLOW = `mutation BrowseFollowObject($input: FollowInput!) { followObject(input: $input) { ${FIELDS} } }`;
const UNFOLLOW = `mutation BrowseUnfollowObject($t: FollowObjectType!, $id: ID!) { unfollowObject(objectType: $t, objectId: $id) }`;
const HOW_OFTEN = { DAILY: 'daily', WEEKLY: 'weekly', MONTHLY: 'monthly' } as const;
const FREQUENCIES = [
  { value: 'DAILY', label: 'Daily' },
  { value: 'WEEKLY', label: 'Weekly' },
  { value: 'MONTHLY', label: 'Monthly' },
];

/**
 * Follows a project, insight or tag for the viewer, and its menu says what following brings
 * (the options that apply to this kind of object, in the server's words) and how often the email
 * digest comes. News reaches the viewer in the app and in the digest.
 */
export function FollowButton({ type, id, what }: { type: FollowType; id: string; what: string }) {
  const { graphql } = useFieldbook();
  const [follow, setFollow] = useState<Follow | null | undefined>(undefined);
  const [options, setOptions] = useState<Array<{ key: OptionKey; label: string }>>([]);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let stale = false;
    graphql<{ follow: Follow | null; followOptions: Array<{ key: OptionKey; label: string }> }>(GET, { t: type, id })
      .then((r) => {
        if (stale) return;
        setFollow(r.follow);
        setOptions(r.followOptions);
      })
      .catch(() => !stale && setFollow(null));
    return () => {
      stale = true;
    };
  }, [graphql, type, id]);
  const following = Boolean(follow);
  const save = async (change: Partial<Follow> | null) => {
    const before = follow;
    setBusy(true);
    // A changed option shows at once (the checkbox answers the click) and goes back if the server refuses it.
    if (change !== null && before) setFollow({ ...before, ...change });
    try {
      if (change === null) {
        await graphql(UNFOLLOW, { t: type, id });
        setFollow(null);
      } else {
        const r = await graphql<{ followObject: Follow }>(FOLLOW, {
          input: { objectType: type, objectId: id, ...change },
        });
        setFollow(r.followObject);
      }
    } catch (err) {
      setFollow(before);
      notifyError(err, following ? `Your follow of this ${what} was not changed` : `The ${what} was not followed`);
    } finally {
      setBusy(false);
    }
  };
  const hint = following
    ? `You get its news in the app and a ${HOW_OFTEN[follow!.frequency]} email digest. Click to unfollow.`
    : `Get its news in the app and by email digest`;
  return (
    <Group gap={4} wrap="nowrap">
      <Tooltip label={hint} multiline w={260}>
        <Button
          variant={following ? 'light' : 'default'}
          size="sm"
          leftSection={following ? <IconBellRinging size={16} aria-hidden /> : <IconBell size={16} aria-hidden />}
          aria-pressed={following}
          loading={busy || follow === undefined}
          onClick={() => void save(following ? null : {})}
        >
          {following ? 'Following' : 'Follow'}
        </Button>
      </Tooltip>
      {following && (
        <Popover position="bottom-end" width={300} shadow="md">
          <Popover.Target>
            <ActionIcon variant="default" size="lg" aria-label={`What following this ${what} brings`}>
              <IconChevronDown size={16} aria-hidden />
            </ActionIcon>
          </Popover.Target>
          <Popover.Dropdown aria-label={`Following this ${what}`}>
            <Stack gap="xs">
              <Text size="sm" fw={600}>
                Tell me about
              </Text>
              {options.map((o) => (
                <Checkbox
                  key={o.key}
                  label={o.label}
                  checked={follow![o.key]}
                  disabled={busy}
                  onChange={(e) => void save({ [o.key]: e.currentTarget.checked })}
                />
              ))}
              <Select
                label="Email digest"
                size="xs"
                data={FREQUENCIES}
                value={follow!.frequency}
                allowDeselect={false}
                comboboxProps={{ withinPortal: false }}
                onChange={(v) => v && void save({ frequency: v as Frequency })}
              />
            </Stack>
          </Popover.Dropdown>
        </Popover>
      )}
    </Group>
  );
}
