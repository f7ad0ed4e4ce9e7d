import type { IResolvers } from '@graphql-tools/utils';
import { operations, type RequestContext } from '@fieldbook/core';
import { projectFor } from '../projects/access.ts';
import { REFERENCE_CARD, referenceOf, type CanvasItemRow } from './canvas.ts';
import { addCanvasItem, canvasItemsOf, removeCanvasItem, updateCanvasItem } from './canvas-items.ts';
import { listViewRows } from './rows.ts';
import { createView, deleteView, getView, listViews, moveView, updateView, type ProjectViewRecord } from './views.ts';

type Args = Record<string, unknown>;

const ITEM_TYPES = {
  RECTANGLE: 'CanvasRectangle',
  TEXT: 'CanvasText',
  GROUP: 'CanvasGroup',
  REFERENCE: 'CanvasReference',
} as const;

const itemFields = {
  viewId: (i: CanvasItemRow) => i.view_id,
  createdAt: (i: CanvasItemRow) => i.created_at,
  updatedAt: (i: CanvasItemRow) => i.updated_at,
};

export function viewsResolvers(): IResolvers<unknown, RequestContext> {
  return {
    Query: operations({ projectViews: listViews, projectView: getView, projectViewRows: listViewRows }),
    Mutation: operations({
      createProjectView: createView,
      updateProjectView: updateView,
      moveProjectView: moveView,
      deleteProjectView: deleteView,
      addCanvasItem,
      updateCanvasItem,
      removeCanvasItem,
    }),
    ProjectView: {
      projectId: (v: ProjectViewRecord) => v.project_id,
      project: (v: ProjectViewRecord, _a: Args, ctx: RequestContext) =>
        ctx.tx(async (trx) => ({ ...(await projectFor(trx, v.caller, v.project_id, 'read')), caller: v.caller })),
      objectType: (v: ProjectViewRecord) => v.object_type,
      sort: (v: ProjectViewRecord) => v.settings.sort,
      filter: (v: ProjectViewRecord) => v.settings.filter,
      group: (v: ProjectViewRecord) => v.settings.group,
      columns: (v: ProjectViewRecord) => v.settings.columns,
      hiddenFields: (v: ProjectViewRecord) => v.settings.hiddenFields,
      hiddenOptions: (v: ProjectViewRecord) => v.settings.hiddenOptions,
      hideUncategorized: (v: ProjectViewRecord) => v.settings.hideUncategorized,
      canvas: (v: ProjectViewRecord) => v.canvasState,
      canvasItems: (v: ProjectViewRecord, _a: Args, ctx: RequestContext) => ctx.tx((trx) => canvasItemsOf(trx, v.id)),
      createdById: (v: ProjectViewRecord) => v.created_by,
      updatedById: (v: ProjectViewRecord) => v.updated_by,
      createdAt: (v: ProjectViewRecord) => v.created_at,
      updatedAt: (v: ProjectViewRecord) => v.updated_at,
    },
    CanvasItem: {
      __resolveType: (i: CanvasItemRow) => ITEM_TYPES[i.kind],
    },
    CanvasRectangle: itemFields,
    CanvasText: { ...itemFields, format: (i: CanvasItemRow) => i.text_format },
    CanvasGroup: itemFields,
    CanvasReference: {
      ...itemFields,
      width: (i: CanvasItemRow) => i.width ?? REFERENCE_CARD.width,
      height: (i: CanvasItemRow) => i.height ?? REFERENCE_CARD.height,
      objectType: (i: CanvasItemRow) => referenceOf(i)?.objectType,
      objectId: (i: CanvasItemRow) => referenceOf(i)?.objectId,
    },
  };
}
