import { cutText, notFound, type RequestContext } from '@fieldbook/core';
import { agentFor } from './agents/store.ts';
import { sendMessage, type RunDeps } from './conversations/run.ts';
import { CONVERSATION_TITLE_MAX, startConversation } from './conversations/store.ts';
import { memberOf } from './tools/access.ts';

/** What automation's invokeAgent needs (its AgentsPort): is the agent there, and run it with a prompt. */
export interface AgentsAutomationPort {
  agentReadable(member: RequestContext, agentId: string): Promise<boolean>;
  invoke(
    member: RequestContext,
    input: { agentId: string; prompt: string; trigger: { event: string } },
  ): Promise<{ summary: string; conversationId: string }>;
}

/**
 * invokeAgent runs as the automation's owner: a conversation of theirs, titled by the prompt, so
 * they can read what the agent did and answer what it paused on.
 */
export function automationPort(deps: RunDeps): AgentsAutomationPort {
  return {
    async agentReadable(member, agentId) {
      const m = memberOf(member);
      try {
        await member.tx((trx) => agentFor(trx, m, agentId));
        return true;
      } catch (err) {
        if (err instanceof Error && 'errorCode' in err && err.errorCode === 'NOT_FOUND') return false;
        throw err;
      }
    },
    async invoke(member, input) {
      if (!(await this.agentReadable(member, input.agentId))) throw notFound('That agent');
      const title = cutText(
        `Automation (${input.trigger.event}): ${input.prompt.replace(/\s+/g, ' ')}`,
        CONVERSATION_TITLE_MAX,
      );
      const conversation = await startConversation(member, { agentId: input.agentId, title });
      const outcome = await sendMessage(deps, member, conversation.id, input.prompt);
      const summary =
        outcome.conversation.status === 'AWAITING_CONFIRMATION'
          ? `The agent is waiting for a confirmation in the conversation “${title}”.`
          : outcome.answer
            ? cutText(outcome.answer, 500)
            : 'The agent finished without an answer.';
      return { summary, conversationId: conversation.id };
    },
  };
}
