import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { AppError } from '../errors/app-error.ts';
import type { Logger } from '../logger.ts';
import { cutText } from '../text/cut.ts';

/**
 * Messages can quote the request (an unknown field name, a variable's value): they are cut so a
 * megabyte sent in is never echoed back.
 */
export const MAX_ERROR_MESSAGE_LENGTH = 500;
const bounded = (message: string): string => cutText(message, MAX_ERROR_MESSAGE_LENGTH, '…');

/** A refusal of the request itself (its document or variables), answered before anything runs. */
export const requestRefused = (message: string, field?: string): GraphQLError =>
  new GraphQLError(message, {
    extensions: { errorCode: 'BAD_USER_INPUT', humanReadable: true, ...(field ? { field } : {}) },
  });

/**
 * Shapes every error that leaves the server: an `errorCode`, a `humanReadable` flag, the field
 * for input errors, and never a stack trace. Unexpected errors are logged and answered as
 * INTERNAL_SERVER_ERROR with a generic message.
 */
export function formatError(logger: Logger) {
  return (err: unknown): GraphQLError => {
    // graphql-http hands over plain errors only for requests it cannot parse (bad JSON, bad params).
    if (!(err instanceof GraphQLError)) {
      const message = err instanceof Error ? err.message : 'The request could not be understood.';
      return new GraphQLError(bounded(message), {
        extensions: { errorCode: 'BAD_USER_INPUT', code: 'BAD_USER_INPUT', humanReadable: false },
      });
    }
    const original = err.originalError;
    if (original instanceof AppError) {
      return new GraphQLError(bounded(original.message), {
        nodes: err.nodes,
        path: err.path,
        extensions: {
          errorCode: original.errorCode,
          code: original.errorCode,
          humanReadable: original.humanReadable,
          ...(original.retryAfterSeconds !== undefined ? { retryAfter: original.retryAfterSeconds } : {}),
          ...(original.upgradeKey ? { upgradeKey: original.upgradeKey } : {}),
          ...(original.field ? { field: bounded(original.field) } : {}),
        },
      });
    }
    if (original && !(original instanceof GraphQLError)) return internal(logger, original, err);
    // Parse and validation errors (and errors already shaped) are about the request itself.
    const ext = err.extensions ?? {};
    return new GraphQLError(bounded(err.message), {
      nodes: err.nodes,
      path: err.path,
      extensions: {
        errorCode: ext.errorCode ?? 'BAD_USER_INPUT',
        code: ext.errorCode ?? 'BAD_USER_INPUT',
        humanReadable: ext.humanReadable ?? false,
        ...(typeof ext.field === 'string' ? { field: bounded(ext.field) } : {}),
      },
    });
  };
}

function internal(logger: Logger, err: unknown, gqlErr?: GraphQLError): GraphQLError {
  logger.error({ err, path: gqlErr?.path }, 'unexpected error in GraphQL');
  return new GraphQLError('Something went wrong on our side. Please try again.', {
    nodes: gqlErr?.nodes,
    path: gqlErr?.path,
    extensions: { errorCode: 'INTERNAL_SERVER_ERROR', code: 'INTERNAL_SERVER_ERROR', humanReadable: true },
  });
}

export type { GraphQLFormattedError };
