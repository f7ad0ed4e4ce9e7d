import type { ModuleContext, ModuleGraphql, RequestContext } from '@fieldbook/core';
import { operations } from '@fieldbook/core';
import { userName } from '../comments/users.ts';
import {
  decideAccessRequest,
  myAccessRequest,
  projectAccessRequests,
  requestProjectAccess,
  restrictedItemProject,
  type AccessRequestRow,
} from './access-requests.ts';

/** GraphQL contract of access requests to restricted projects (001 §3.8; 002 §6 "access requests manage"). */
const typeDefs = /* GraphQL */ `
  extend type Query {
    "The caller's pending request to a project they cannot read, if any."
    myAccessRequest(projectId: ID!): AccessRequest
    "Requests to a project, pending first; for people with full access to it."
    projectAccessRequests(projectId: ID!): [AccessRequest!]!
    "The project of a note, insight or highlight that the caller cannot read because the project is restricted to them; null otherwise. Names nothing else of the item."
    restrictedItemProject(objectType: RestrictedItemType!, objectId: ID!): ID
  }

  "The items whose project restrictedItemProject names."
  enum RestrictedItemType { NOTE INSIGHT HIGHLIGHT }

  extend type Mutation {
    "Asks for Viewer or Contributor access to a project the caller cannot read; one pending request per person and project."
    requestProjectAccess(input: RequestProjectAccessInput!): AccessRequest!
    "Grants the requester the asked role on the project and tells them."
    approveAccessRequest(id: ID!): AccessRequest!
    "Turns the request down and tells the requester."
    denyAccessRequest(id: ID!): AccessRequest!
  }

  input RequestProjectAccessInput {
    projectId: ID!
    "VIEWER or CONTRIBUTOR."
    role: String!
    "At most 1,000 characters."
    message: String
  }

  enum AccessRequestStatus { PENDING APPROVED DENIED }

  type AccessRequest {
    id: ID!
    projectId: ID!
    userId: ID!
    userName: String
    role: String!
    message: String
    status: AccessRequestStatus!
    decidedById: ID
    decidedAt: DateTime
    createdAt: DateTime!
  }
`;

type Args = Record<string, unknown>;

export const accessRequestsPart = (moduleCtx: ModuleContext): ModuleGraphql => ({
  typeDefs,
  resolvers: {
    Query: operations({ myAccessRequest, projectAccessRequests, restrictedItemProject }),
    Mutation: operations({
      requestProjectAccess: (ctx: RequestContext, args: unknown) => requestProjectAccess(ctx, moduleCtx.jobs, args),
      approveAccessRequest: (ctx: RequestContext, args: unknown) =>
        decideAccessRequest(ctx, moduleCtx.jobs, args, 'APPROVED'),
      denyAccessRequest: (ctx: RequestContext, args: unknown) =>
        decideAccessRequest(ctx, moduleCtx.jobs, args, 'DENIED'),
    }),
    AccessRequest: {
      projectId: (r: AccessRequestRow) => r.project_id,
      userId: (r: AccessRequestRow) => r.user_id,
      userName: (r: AccessRequestRow, _a: Args, ctx: RequestContext) => userName(ctx, r.user_id),
      decidedById: (r: AccessRequestRow) => r.decided_by,
      decidedAt: (r: AccessRequestRow) => r.decided_at,
      createdAt: (r: AccessRequestRow) => r.created_at,
    },
  },
});
