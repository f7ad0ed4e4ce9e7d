/**
 * The rich text editor of notes and insights, for every research screen that edits rich text
 * (the project readme too), so all of them keep the same schema: headings, lists, quotes, links.
 */
export { DocumentEditor, type DocumentEditorProps } from '../documents/editor/DocumentEditor.tsx';
export { EditorToolbar } from './EditorToolbar.tsx';
