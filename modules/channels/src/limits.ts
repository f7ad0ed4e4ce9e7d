/** Lengths and counts the channels module enforces (000 §9, 001 §3.4, 002 §5 and §9). */
export const CHANNEL_LIMITS = {
  name: 200,
  description: 2000,
  /** A data point's text, as a survey response (001 §3.4). */
  content: 20000,
  externalId: 500,
  /** File import url (000 §9), used for every url a data point carries. */
  url: 3000,
  fieldLabel: 250,
  /** Text field value (000 §9). */
  textValue: 10299,
  email: 320,
  /** Select options per field and option label (000 §9). */
  selectOptions: 750,
  optionLabel: 50,
  /** Data points one API request may push. */
  pushBatch: 500,
  /** Records written per transaction by an import job. */
  importBatch: 200,
  /** Failed records an import keeps with their reason. */
  keptFailures: 1000,
  /** A CSV upload. */
  csvBytes: 50 * 1024 * 1024,
  /** Bytes of one push of data points (POST /api/channels/{id}/datapoints); past it, 413. */
  pushBytes: 10 * 1024 * 1024,
  /** Rows a CSV preview shows. */
  previewRows: 10,
  /** Bytes of a CSV file its preview reads: the first rows are in them, the rest of the file is not read. */
  previewBytes: 1024 * 1024,
  /** Characters of a value a CSV preview shows; a longer one is cut, ending with an ellipsis. */
  previewValue: 1000,
  /** Columns a CSV file may have. */
  csvColumns: 500,
  pageSize: 100,
  /** Default number of data points a page shows (002 §9: default datum count). */
  defaultDatumCount: 10,
  /** Aggregation periods of the chart: 1 to 5, default 2 (002 §9). */
  aggregationPeriods: { min: 1, max: 5, default: 2 },
} as const;
