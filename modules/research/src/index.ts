import { defineModule, workspacesModule, type ModuleContext, type ModuleGraphql } from '@fieldbook/core';

/**
 * The research repository: projects, folders, notes, insights, highlights, tags, fields and
 * people. Each concept lives in its own folder and contributes its part of the GraphQL schema.
 */
type ResearchPart = (ctx: ModuleContext) => ModuleGraphql;
const parts: readonly ResearchPart[] = [];

const researchModule = defineModule({
  name: 'research',
  dependsOn: [workspacesModule],
  graphql: (ctx) => parts.map((part) => part(ctx)),
});

export default researchModule;
