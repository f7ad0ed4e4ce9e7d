import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { Person } from '../api.ts';
import { ErrorNote } from '../ui/layout.tsx';

export const PERSON_LIMITS = { name: 300, email: 320, company: 200, title: 200 } as const;

export interface PersonInput {
  name: string;
  email: string;
  company: string;
  title: string;
}

/** Create or edit a person (name 1..300, email up to 320, 000 §9); the server's errors are shown in the dialog. */
export function PersonDialog({
  opened,
  onClose,
  onSubmit,
  busy,
  error,
  person,
}: {
  opened: boolean;
  onClose(): void;
  onSubmit(input: PersonInput): void;
  busy: boolean;
  error: unknown;
  person?: Person | null;
}) {
  const [v, setV] = useState<PersonInput>({ name: '', email: '', company: '', title: '' });
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    if (opened) {
      setV({
        name: person?.name ?? '',
        email: person?.email ?? '',
        company: person?.company ?? '',
        title: person?.title ?? '',
      });
      setTouched(false);
    }
  }, [opened, person]);
  const set = (k: keyof PersonInput) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setV({ ...v, [k]: e.currentTarget.value });
  const too = (k: keyof PersonInput) =>
    v[k].trim().length > PERSON_LIMITS[k] ? `At most ${PERSON_LIMITS[k]} characters.` : null;
  const nameProblem = !v.name.trim() ? 'Enter a name.' : too('name');
  const emailProblem =
    too('email') ??
    (v.email.trim() && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.email.trim())
      ? 'Enter an email address like name@example.com.'
      : null);
  const invalid = Boolean(nameProblem || emailProblem || too('company') || too('title'));

  return (
    <Modal opened={opened} onClose={onClose} title={person ? 'Edit person' : 'New person'}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (!invalid)
            onSubmit({ name: v.name.trim(), email: v.email.trim(), company: v.company.trim(), title: v.title.trim() });
        }}
      >
        <Stack gap="md">
          <TextInput
            label="Name"
            required
            value={v.name}
            onChange={set('name')}
            error={touched ? nameProblem : too('name')}
            data-autofocus
          />
          <TextInput
            label="Email"
            type="email"
            value={v.email}
            onChange={set('email')}
            error={touched ? emailProblem : too('email')}
          />
          <TextInput label="Company" value={v.company} onChange={set('company')} error={too('company')} />
          <TextInput label="Job title" value={v.title} onChange={set('title')} error={too('title')} />
          <ErrorNote error={error} title={person ? 'The changes were not saved' : 'The person was not created'} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              {person ? 'Save' : 'Create person'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
