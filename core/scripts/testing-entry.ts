// The entry of the packaged test host (`@fieldbook/core/testing` as published): the testing kit
// with the research module bundled in, so a plugin outside this repository tests against the same
// Fieldbook as the plugins inside it.
import research from '@fieldbook/research';
import { setTestModules } from '../src/testing/index.ts';

setTestModules([research]);

export {
  coreTesting,
  createDatabaseFromTemplate,
  startTestDatabase,
  startTestFieldbook,
} from '../src/testing/index.ts';
