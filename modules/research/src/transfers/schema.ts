/** GraphQL contract of project exports and imports (001 §3.7). */
export const transfersTypeDefs = /* GraphQL */ `
  extend type Query {
    "One export or import, for following its progress: the requester's own, or one of a project the caller can read."
    projectTransfer(id: ID!): ProjectTransfer!
    "A project's exports and the import that created it, newest first (at most 100)."
    projectTransfers(projectId: ID!, first: Int): [ProjectTransfer!]!
  }

  extend type Mutation {
    """
    Exports a project the caller can read (Contributor and above) as jsonl files with a manifest
    in a tar archive, written by a background job; download it from downloadUrl once COMPLETED.
    """
    exportProject(projectId: ID!): ProjectTransfer!
    """
    Imports a finished export, of this or another workspace the caller belongs to and can read
    the project of, as a new project of this workspace. Archives can also be uploaded to
    POST /api/imports.
    """
    importProject(input: ImportProjectInput!): ProjectTransfer!
  }

  input ImportProjectInput {
    "The id of a COMPLETED export."
    exportId: ID!
    "The new project's title, 1..200 characters; the exported project's title when left out."
    title: String
  }

  enum ProjectTransferKind { EXPORT IMPORT }
  enum ProjectTransferStatus { QUEUED RUNNING COMPLETED FAILED }
  "The id-mapping sets of an import (001 §3.7), and the other records it gives new ids."
  enum TransferIdKind { fields files fieldSets highlights insights notes tagBoards tagGroups tags projects projectCategories fieldOptions people comments projectViews }

  type ProjectTransfer {
    id: ID!
    kind: ProjectTransferKind!
    status: ProjectTransferStatus!
    "0..100."
    progress: Int!
    "Records written or created, by kind (notes, insights, highlights, tags...)."
    counts: JSON!
    "Why it FAILED, for people."
    error: String
    "The exported project, or the project the import created once it is COMPLETED."
    projectId: ID
    projectTitle: String
    "Bytes of the archive."
    fileSize: Float
    "Where a COMPLETED export is downloaded (GET with the bearer token and workspace header)."
    downloadUrl: String
    "The export an import read, when it imported one by reference."
    sourceExportId: ID
    createdById: ID
    createdAt: DateTime!
    updatedAt: DateTime!
    completedAt: DateTime
    "Which new id each exported id became (imports only), a page at a time after the exported id 'after'."
    idMappings(kind: TransferIdKind!, first: Int, after: String): [TransferIdMapping!]!
  }

  type TransferIdMapping {
    sourceId: String!
    targetId: String!
  }
`;
