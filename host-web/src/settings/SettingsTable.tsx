import { Paper, Table, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';

export interface SettingsColumn<T> {
  /** The column's heading; an actions column's heading is read by screen readers only. */
  header: string;
  actions?: boolean;
  cell: (row: T) => ReactNode;
}

/**
 * The table of the workspace settings pages (members, invitations, groups, tokens): one row an
 * item, scrolling sideways on narrow screens, actions in the last column, aligned right. On a page
 * it stands in a bordered paper; inside a settings section (`inSection`) it is tighter and bare.
 */
export function SettingsTable<T>({
  rows,
  rowKey,
  columns,
  inSection = false,
  highlightOnHover = false,
  emptyRow,
}: {
  rows: readonly T[];
  rowKey: (row: T) => string;
  columns: ReadonlyArray<SettingsColumn<T>>;
  inSection?: boolean;
  highlightOnHover?: boolean;
  /** Shown across the table when there are no rows (e.g. nothing matches a search). */
  emptyRow?: ReactNode;
}) {
  const table = (
    <Table.ScrollContainer minWidth={560}>
      <Table
        verticalSpacing={inSection ? 'xs' : 'sm'}
        horizontalSpacing={inSection ? undefined : 'md'}
        highlightOnHover={highlightOnHover}
      >
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.header}>{c.actions ? <VisuallyHidden>{c.header}</VisuallyHidden> : c.header}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={rowKey(row)}>
              {columns.map((c) => (
                <Table.Td key={c.header} ta={c.actions ? 'right' : undefined}>
                  {c.cell(row)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
          {rows.length === 0 && emptyRow && (
            <Table.Tr>
              <Table.Td colSpan={columns.length}>{emptyRow}</Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
  return inSection ? (
    table
  ) : (
    <Paper withBorder radius="md">
      {table}
    </Paper>
  );
}
