/** GraphQL contract of custom fields, their select options and their values (000 §3, §5). */
export const fieldsTypeDefs = /* GraphQL */ `
  extend type Query {
    "The fields of one field set: the workspace's own when projectId is left out, else one project's."
    fieldSet(objectType: FieldObjectType!, projectId: ID): [Field!]!
    field(id: ID!): Field!
    "The field values of a note, insight or person."
    fieldValues(objectType: FieldValueObjectType!, objectId: ID!): [FieldValue!]!
  }

  extend type Mutation {
    createField(input: CreateFieldInput!): Field!
    updateField(input: UpdateFieldInput!): Field!
    "Deletes a field with its options and values (managers)."
    deleteField(id: ID!): Boolean!
    addFieldOption(fieldId: ID!, input: FieldOptionInput!): FieldOption!
    updateFieldOption(id: ID!, input: UpdateFieldOptionInput!): FieldOption!
    "Deletes an option and takes it out of every value (managers)."
    deleteFieldOption(id: ID!): Boolean!
    """
    Sets one field's value on an object; a blank value (null, empty text, empty list) clears it
    and answers null. Select fields take a comma-separated list of option labels (unknown ones
    become options) or optionIds; person fields take member ids.
    """
    setFieldValue(objectType: FieldValueObjectType!, objectId: ID!, fieldId: ID!, value: JSON, optionIds: [String!]): FieldValue
  }

  enum FieldType { ARR BOOLEAN CSAT DATETIME EMAIL NPS NUMBER PERSON PHONE RATING SELECT TEXT URL }
  "The field sets: note, insight and person fields, and workspace fields shared by notes and insights."
  enum FieldObjectType { NOTE INSIGHT PERSON WORKSPACE }
  enum FieldValueObjectType { NOTE INSIGHT PERSON }
  enum NumberFormat { number number_with_commas percent currency }

  type Field {
    id: ID!
    objectType: FieldObjectType!
    projectId: ID
    type: FieldType!
    "1..250 characters."
    label: String!
    rank: Float!
    "Number and ARR fields only."
    numberConfig: NumberConfig
    "Select fields: as configured, else 100, or 1 while the field has one option."
    maxSelectable: Int
    options: [FieldOption!]!
    createdAt: DateTime!
    updatedAt: DateTime!
  }

  type NumberConfig {
    format: NumberFormat!
    currencySymbol: String
  }

  type FieldOption {
    id: ID!
    "1..50 characters."
    label: String!
    displayLabel: String
    "Six-digit hex; derived from the label unless chosen."
    color: String!
    rank: Float!
  }

  type FieldValue {
    field: Field!
    objectType: FieldValueObjectType!
    objectId: ID!
    "Text, number or boolean; a list of ids for select and person fields."
    value: JSON!
    "Select fields: the chosen options, in the order chosen."
    options: [FieldOption!]!
    updatedAt: DateTime!
  }

  input NumberConfigInput {
    format: NumberFormat!
    currencySymbol: String
  }

  input FieldOptionInput {
    label: String!
    "Hex colour; the 3-digit form is expanded. Defaults to a colour derived from the label."
    color: String
    displayLabel: String
  }

  input UpdateFieldOptionInput {
    label: String
    color: String
    displayLabel: String
  }

  input CreateFieldInput {
    objectType: FieldObjectType!
    "Note and insight fields only; leave out for a workspace-level field."
    projectId: ID
    type: FieldType!
    label: String!
    numberConfig: NumberConfigInput
    maxSelectable: Int
    options: [FieldOptionInput!]
    "Options as imports carry them: separated by semicolons."
    importedOptions: String
  }

  input UpdateFieldInput {
    id: ID!
    label: String
    numberConfig: NumberConfigInput
    "Null returns to the default."
    maxSelectable: Int
  }
`;
