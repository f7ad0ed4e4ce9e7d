import { defineModule, workspacesModule } from '@fieldbook/core';

/**
 * The research repository: projects, notes, highlights, insights, tags, fields and people.
 * This is its skeleton; the research issue fills it.
 */
const researchModule = defineModule({
  name: 'research',
  dependsOn: [workspacesModule],
});

export default researchModule;
