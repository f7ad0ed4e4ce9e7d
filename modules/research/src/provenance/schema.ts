/** GraphQL contract of who made an item: a person, AI or an agent. */
export const provenanceTypeDefs = /* GraphQL */ `
  "PERSON: a person wrote it. AI: AI wrote it on a person's request (an AI step, an accepted suggestion, a translation). AGENT: an agent wrote it."
  enum MakerKind { PERSON AI AGENT }

  "Who made an item, and for AI-made items the model that wrote it."
  type Maker {
    kind: MakerKind!
    "The person who made it, or on whose behalf AI or an agent did."
    personId: ID
    "The model that wrote it; null when a person did."
    model: String
    "What the item shows beside its title: \\"Written by AI\\" when AI or an agent made it, null when a person did."
    label: String
  }

  extend type Note {
    createdBy: Maker!
  }

  extend type Insight {
    createdBy: Maker!
  }

  extend type Highlight {
    createdBy: Maker!
  }
`;
