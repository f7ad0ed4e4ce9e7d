import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import {
  contentFixture,
  createProject,
  failure,
  ok,
  startResearchServer,
  type ContentFixture,
} from './content-support.ts';

const FIELD =
  'id objectType projectId type label rank numberConfig { format currencySymbol } maxSelectable options { id label color displayLabel }';
const CREATE = `mutation($input: CreateFieldInput!) { createField(input: $input) { ${FIELD} } }`;
const UPDATE = `mutation($input: UpdateFieldInput!) { updateField(input: $input) { ${FIELD} } }`;
const DELETE = 'mutation($id: ID!) { deleteField(id: $id) }';
const FIELD_SET = `query($t: FieldObjectType!, $p: ID) { fieldSet(objectType: $t, projectId: $p) { ${FIELD} } }`;
const ADD_OPTION = `mutation($f: ID!, $input: FieldOptionInput!) { addFieldOption(fieldId: $f, input: $input) { id label color } }`;
const DELETE_OPTION = 'mutation($id: ID!) { deleteFieldOption(id: $id) }';
const SET = `mutation($t: FieldValueObjectType!, $o: ID!, $f: ID!, $v: JSON, $ids: [String!]) {
  setFieldValue(objectType: $t, objectId: $o, fieldId: $f, value: $v, optionIds: $ids) { value options { id label color } field { id label } } }`;
const VALUES = `query($t: FieldValueObjectType!, $o: ID!) { fieldValues(objectType: $t, objectId: $o) { value field { id label } } }`;

interface Field {
  id: string;
  type: string;
  label: string;
  numberConfig: { format: string; currencySymbol: string | null } | null;
  maxSelectable: number | null;
  options: Array<{ id: string; label: string; color: string }>;
}
interface Value {
  value: unknown;
  options: Array<{ id: string; label: string; color: string }>;
}

describe('custom fields', () => {
  let server: TestServer;
  let mail: TestMailServer;
  let f: ContentFixture;
  let other: ContentFixture;
  let projectId: string;
  let noteId: string;
  let insightId: string;

  async function note(project: string, table: 'notes' | 'insights' = 'notes'): Promise<string> {
    const [row] = await server.fieldbook.db
      .owner(table)
      .insert({ workspace_id: f.ws.id, project_id: project, title: 'Call', content_text: 'Hi' })
      .returning('id');
    return row.id as string;
  }
  const create = async (input: Record<string, unknown>) =>
    ok(await f.contributor.gql<{ createField: Field }>(CREATE, { input })).createField;
  const set = (fieldId: string, v: unknown, objectId = noteId, t = 'NOTE') =>
    f.contributor.gql<{ setFieldValue: Value | null }>(SET, { t, o: objectId, f: fieldId, v });

  beforeAll(async () => {
    ({ server, mail } = await startResearchServer());
    f = await contentFixture(server, mail);
    other = await contentFixture(server, mail, []);
    projectId = (await createProject(f.contributor.gql, 'Field research')).id;
    noteId = await note(projectId);
    insightId = await note(projectId, 'insights');
  });
  afterAll(async () => {
    await server?.close();
    await mail?.close();
  });

  it('creates a field of every type in the note, insight, person and workspace field sets', async () => {
    const types = [
      'ARR',
      'BOOLEAN',
      'CSAT',
      'DATETIME',
      'EMAIL',
      'NPS',
      'NUMBER',
      'PERSON',
      'PHONE',
      'RATING',
      'SELECT',
      'TEXT',
      'URL',
    ];
    for (const type of types) await create({ objectType: 'NOTE', projectId, type, label: `  ${type} field ` });
    const set = ok(await f.viewer.gql<{ fieldSet: Field[] }>(FIELD_SET, { t: 'NOTE', p: projectId })).fieldSet;
    expect(set.map((x) => x.type)).toEqual(types);
    expect(set[0]!.label).toBe('ARR field');
    expect(set.find((x) => x.type === 'NUMBER')!.numberConfig).toEqual({ format: 'number', currencySymbol: null });
    expect(set.find((x) => x.type === 'SELECT')!.maxSelectable).toBe(100);
    expect(set.find((x) => x.type === 'TEXT')!.numberConfig).toBeNull();

    for (const objectType of ['INSIGHT', 'PERSON', 'WORKSPACE'])
      await create({ objectType, type: 'TEXT', label: `${objectType} notes` });
    expect(
      ok(await f.viewer.gql<{ fieldSet: Field[] }>(FIELD_SET, { t: 'PERSON' })).fieldSet.map((x) => x.label),
    ).toEqual(['PERSON notes']);
    const wrong = failure(
      await f.contributor.gql(CREATE, { input: { objectType: 'WORKSPACE', projectId, type: 'TEXT', label: 'x' } }),
    );
    expect(wrong.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'projectId' });
  });

  it('enforces the label limit and configs with exact messages', async () => {
    const long = failure(
      await f.contributor.gql(CREATE, { input: { objectType: 'NOTE', type: 'TEXT', label: 'x'.repeat(251) } }),
    );
    expect(long.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'label' });
    expect(long.message).toBe('A field label can be at most 250 characters long.');
    expect(
      failure(await f.contributor.gql(CREATE, { input: { objectType: 'NOTE', type: 'TEXT', label: '  ' } })).message,
    ).toBe('Give the field a label.');
    expect((await create({ objectType: 'NOTE', type: 'TEXT', label: 'l'.repeat(250) })).label).toHaveLength(250);
    const money = await create({
      objectType: 'NOTE',
      type: 'ARR',
      label: 'Revenue',
      numberConfig: { format: 'currency', currencySymbol: ' $ ' },
    });
    expect(money.numberConfig).toEqual({ format: 'currency', currencySymbol: '$' });
    const pct = ok(
      await f.contributor.gql<{ updateField: Field }>(UPDATE, {
        input: { id: money.id, numberConfig: { format: 'percent' } },
      }),
    ).updateField;
    expect(pct.numberConfig).toEqual({ format: 'percent', currencySymbol: null });
    expect(
      failure(
        await f.contributor.gql(CREATE, {
          input: { objectType: 'NOTE', type: 'TEXT', label: 'T', numberConfig: { format: 'percent' } },
        }),
      ).extensions?.field,
    ).toBe('numberConfig');
    expect(
      failure(
        await f.contributor.gql(CREATE, {
          input: { objectType: 'NOTE', type: 'TEXT', label: 'T', options: [{ label: 'a' }] },
        }),
      ).message,
    ).toBe('Only select fields have options.');
    const optionLabel = failure(
      await f.contributor.gql(CREATE, {
        input: { objectType: 'NOTE', type: 'SELECT', label: 'S', options: [{ label: 'o'.repeat(51) }] },
      }),
    );
    expect(optionLabel.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'options.0.label' });
    expect(optionLabel.message).toBe('options.0.label: An option label can be at most 50 characters long.');
  });

  it('validates values by type and stores them per object', async () => {
    const fields = Object.fromEntries(
      ok(await f.viewer.gql<{ fieldSet: Field[] }>(FIELD_SET, { t: 'NOTE', p: projectId })).fieldSet.map((x) => [
        x.type,
        x.id,
      ]),
    );
    const good: Array<[string, unknown, unknown]> = [
      ['TEXT', '  Quiet user ', 'Quiet user'],
      ['EMAIL', 'ada@example.com', 'ada@example.com'],
      ['URL', 'https://example.com', 'https://example.com'],
      ['PHONE', '+44 20 7946 0018', '+44 20 7946 0018'],
      ['NPS', 9, 9],
      ['RATING', '4', 4],
      ['CSAT', 5, 5],
      ['NUMBER', '12.5', 12.5],
      ['ARR', 120000, 120000],
      ['DATETIME', '2024-05-31', '2024-05-31'],
      ['BOOLEAN', false, false],
      ['PERSON', `${f.viewer.user.id}, bogus`, [f.viewer.user.id]],
    ];
    for (const [type, input, stored] of good)
      expect(ok(await set(fields[type]!, input)).setFieldValue!.value, type).toEqual(stored);
    const bad: Array<[string, unknown, string]> = [
      ['TEXT', 'x'.repeat(10300), 'A text field value can be at most 10299 characters long.'],
      ['EMAIL', 'nope', 'Enter a valid email address.'],
      ['URL', 'ftp://x.y', 'Enter a valid URL starting with http:// or https://.'],
      ['PHONE', 'abc', 'Enter a valid phone number.'],
      ['NPS', 11, 'An NPS score is a whole number from 0 to 10.'],
      ['RATING', 6, 'A rating is a whole number from 1 to 5.'],
      ['NUMBER', 'many', 'A number field takes a finite number.'],
      ['DATETIME', '2024-13-01', 'A date must be ISO 8601, e.g. 2024-05-31 or 2024-05-31T14:30:00Z.'],
      ['BOOLEAN', 'maybe', 'A yes/no field takes true or false.'],
      ['PERSON', other.ws.admin.user.id, 'A person field takes members of this workspace.'],
    ];
    for (const [type, input, message] of bad) {
      const error = failure(await set(fields[type]!, input));
      expect(error.extensions, type).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'value' });
      expect(error.message, type).toBe(message);
    }
    expect(ok(await set(fields.TEXT!, 'x'.repeat(10299))).setFieldValue!.value).toHaveLength(10299);
    const values = ok(
      await f.viewer.gql<{ fieldValues: Array<{ value: unknown; field: { id: string } }> }>(VALUES, {
        t: 'NOTE',
        o: noteId,
      }),
    ).fieldValues;
    expect(values.find((v) => v.field.id === fields.NPS)!.value).toBe(9);
    expect(values.find((v) => v.field.id === fields.EMAIL)!.value).toBe('ada@example.com');
    expect(ok(await set(fields.NPS!, null)).setFieldValue).toBeNull();
    const after = ok(
      await f.viewer.gql<{ fieldValues: Array<{ field: { id: string } }> }>(VALUES, { t: 'NOTE', o: noteId }),
    ).fieldValues;
    expect(after.some((v) => v.field.id === fields.NPS)).toBe(false);
  });

  it('turns select values into options: matched case-insensitively, new ones coloured, max 1 for a single option', async () => {
    const select = await create({
      objectType: 'WORKSPACE',
      type: 'SELECT',
      label: 'Segment',
      importedOptions: ' Enterprise ; SMB;; smb ',
    });
    expect(select.options.map((o) => o.label)).toEqual(['Enterprise', 'SMB']);
    const first = ok(await set(select.id, 'enterprise, Startup, startup ,  ')).setFieldValue!;
    expect(first.options.map((o) => o.label)).toEqual(['Enterprise', 'Startup']);
    const fieldNow = ok(await f.viewer.gql<{ fieldSet: Field[] }>(FIELD_SET, { t: 'WORKSPACE' })).fieldSet.find(
      (x) => x.id === select.id,
    )!;
    expect(fieldNow.options.map((o) => o.label)).toEqual(['Enterprise', 'SMB', 'Startup']);
    const startup = fieldNow.options.find((o) => o.label === 'Startup')!;
    const again = await create({
      objectType: 'NOTE',
      type: 'SELECT',
      label: 'Same colour',
      options: [{ label: 'startup' }],
    });
    expect(again.options[0]!.color).toBe(startup.color);

    // Workspace fields apply to insights as well; option ids are de-duplicated and junk dropped.
    const byIds = ok(await set(select.id, undefined, insightId, 'INSIGHT')).setFieldValue;
    expect(byIds).toBeNull();
    const ids = ok(
      await f.contributor.gql<{ setFieldValue: Value }>(SET, {
        t: 'INSIGHT',
        o: insightId,
        f: select.id,
        ids: [startup.id, 'junk', startup.id.toUpperCase()],
      }),
    ).setFieldValue;
    expect(ids.value).toEqual([startup.id]);

    const single = await create({
      objectType: 'NOTE',
      type: 'SELECT',
      label: 'Single',
      options: [{ label: 'Only', color: '#0a0' }],
    });
    expect(single.maxSelectable).toBe(1);
    expect(single.options[0]!.color).toBe('#00aa00');
    expect(failure(await set(single.id, 'Only, Another')).message).toBe('This field accepts at most 1 option.');
    expect(
      ok(await f.viewer.gql<{ fieldSet: Field[] }>(FIELD_SET, { t: 'NOTE' })).fieldSet.find((x) => x.id === single.id)!
        .options,
    ).toHaveLength(1);
    const capped = ok(
      await f.contributor.gql<{ updateField: Field }>(UPDATE, { input: { id: select.id, maxSelectable: 2 } }),
    ).updateField;
    expect(capped.maxSelectable).toBe(2);
    expect(failure(await set(select.id, 'SMB, Enterprise, Startup')).message).toBe(
      'This field accepts at most 2 options.',
    );

    const dup = failure(await f.contributor.gql(ADD_OPTION, { f: select.id, input: { label: 'smb' } }));
    expect(dup.message).toBe('An option with this label already exists.');
    expect(
      ok(await f.manager.gql<{ deleteFieldOption: boolean }>(DELETE_OPTION, { id: startup.id })).deleteFieldOption,
    ).toBe(true);
    const kept = ok(
      await f.viewer.gql<{ fieldValues: Array<{ value: unknown; field: { id: string } }> }>(VALUES, {
        t: 'NOTE',
        o: noteId,
      }),
    ).fieldValues;
    expect(kept.find((v) => v.field.id === select.id)!.value).toEqual([first.options[0]!.id]);
  });

  it('keeps at most 750 options', async () => {
    const labels = Array.from({ length: 749 }, (_, i) => `Option ${i}`).join(';');
    const big = await create({ objectType: 'NOTE', projectId, type: 'SELECT', label: 'Big', importedOptions: labels });
    expect(big.options).toHaveLength(749);
    ok(await f.contributor.gql(ADD_OPTION, { f: big.id, input: { label: 'Option 749' } }));
    // A full field keeps its 750: the new option is dropped and the rest of the value applies.
    const kept = ok(await set(big.id, 'Option 1, Brand new, option 2')).setFieldValue!;
    expect(kept.options.map((o) => o.label)).toEqual(['Option 1', 'Option 2']);
    expect(
      ok(await f.viewer.gql<{ fieldSet: Field[] }>(FIELD_SET, { t: 'NOTE', p: projectId })).fieldSet.find(
        (x) => x.id === big.id,
      )!.options,
    ).toHaveLength(750);
    expect(failure(await f.contributor.gql(ADD_OPTION, { f: big.id, input: { label: 'One too many' } })).message).toBe(
      'A select field can have at most 750 options.',
    );
  });

  it('answers NOT_FOUND across workspaces and FORBIDDEN for viewers', async () => {
    const text = await create({ objectType: 'NOTE', projectId, type: 'TEXT', label: 'Private' });
    expect(failure(await other.admin(SET, { t: 'NOTE', o: noteId, f: text.id, v: 'x' })).extensions?.errorCode).toBe(
      'NOT_FOUND',
    );
    expect(failure(await other.admin(UPDATE, { input: { id: text.id, label: 'Theirs' } })).extensions?.errorCode).toBe(
      'NOT_FOUND',
    );
    expect(failure(await other.admin(FIELD_SET, { t: 'NOTE', p: projectId })).extensions?.errorCode).toBe('NOT_FOUND');
    const otherText = ok(
      await other.admin<{ createField: Field }>(CREATE, {
        input: { objectType: 'NOTE', type: 'TEXT', label: 'Theirs' },
      }),
    ).createField;
    expect(failure(await set(otherText.id, 'x')).extensions?.errorCode).toBe('NOT_FOUND');
    expect(
      failure(await f.viewer.gql(CREATE, { input: { objectType: 'NOTE', type: 'TEXT', label: 'No' } })).extensions
        ?.errorCode,
    ).toBe('FORBIDDEN');
    expect(failure(await f.viewer.gql(SET, { t: 'NOTE', o: noteId, f: text.id, v: 'x' })).extensions?.errorCode).toBe(
      'FORBIDDEN',
    );
    expect(failure(await f.contributor.gql(DELETE, { id: text.id })).extensions?.errorCode).toBe('FORBIDDEN');
    expect(ok(await f.manager.gql<{ deleteField: boolean }>(DELETE, { id: text.id })).deleteField).toBe(true);
    const personField = ok(await f.viewer.gql<{ fieldSet: Field[] }>(FIELD_SET, { t: 'PERSON' })).fieldSet[0]!;
    expect(failure(await set(personField.id, 'x')).message).toBe('That field does not apply to this note.');
  });
  it('refuses values on a person in the trash, and keeps their values for a restore', async () => {
    const personField = await create({ objectType: 'PERSON', type: 'TEXT', label: 'Segment' });
    const person = ok(
      await f.contributor.gql<{ createPerson: { id: string } }>(
        'mutation { createPerson(input: { name: "Dana Reyes" }) { id } }',
      ),
    ).createPerson;
    expect(ok(await set(personField.id, 'Enterprise', person.id, 'PERSON')).setFieldValue!.value).toBe('Enterprise');
    ok(await f.manager.gql('mutation($id: ID!) { deletePerson(id: $id) }', { id: person.id }));

    const refused = failure(await set(personField.id, 'SMB', person.id, 'PERSON'));
    expect(refused.extensions?.errorCode).toBe('NOT_FOUND');
    expect(refused.message).toContain('That person');
    expect(failure(await f.viewer.gql(VALUES, { t: 'PERSON', o: person.id })).extensions?.errorCode).toBe('NOT_FOUND');
    const stored = await server.fieldbook.db
      .owner('field_values')
      .where({ object_type: 'PERSON', object_id: person.id })
      .select('value');
    expect(stored.map((r) => r.value)).toEqual(['Enterprise']);

    ok(await f.manager.gql('mutation($id: ID!) { restore(type: PERSON, id: $id) }', { id: person.id }));
    expect(
      ok(await f.viewer.gql<{ fieldValues: Value[] }>(VALUES, { t: 'PERSON', o: person.id })).fieldValues.map(
        (v) => v.value,
      ),
    ).toEqual(['Enterprise']);
    expect(ok(await set(personField.id, 'SMB', person.id, 'PERSON')).setFieldValue!.value).toBe('SMB');
  });
});
