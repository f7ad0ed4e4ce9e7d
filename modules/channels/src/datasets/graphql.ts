import type { ModuleGraphql } from '@fieldbook/core';
import type { DatasetOverviewRow } from './overview.ts';

/** What the channel page lists of each dataset: its size and its latest import. */
export function datasetsGraphql(): ModuleGraphql {
  return {
    typeDefs: /* GraphQL */ `
      extend type ChannelDataset {
        "Data points the dataset holds."
        pointCount: Int!
        "Its latest import (none for the API dataset, which pushes fill)."
        lastImport: ChannelImport
      }
    `,
    resolvers: {
      ChannelDataset: {
        pointCount: (d: DatasetOverviewRow) => d.point_count,
        lastImport: (d: DatasetOverviewRow) => d.last_import,
      },
    },
  };
}
