/**
 * Bookkeeping of one submit() call: each message becomes one task per part, and the message's result
 * resolves once every one of its parts is settled (accepted with an smscId, or failed with an error).
 */
import type { OutboundMessage, PartSubmission, SubmissionResult } from '../carrier';
import { encodeParts } from './submit-parts';
import type { SubmitSmParams } from '../../../../smpp/short-message';

interface MessageTracker {
  messageId: string;
  parts: PartSubmission[];
  remaining: number;
  resolve(result: SubmissionResult): void;
}

export interface PartTask {
  params: SubmitSmParams;
  tracker: MessageTracker;
  index: number;
  /** How many times the part went unanswered on a bind that dropped. */
  requeues: number;
  settled: boolean;
}

/**
 * The part tasks of `message` (concatenation reference `ref`) on carrier `carrierId`, and the promise of its result. A message
 * that cannot be encoded has no tasks and resolves at once with a failed part.
 */
export function partTasks(message: OutboundMessage, ref: number, carrierId: number): { tasks: PartTask[]; result: Promise<SubmissionResult> } {
  let tasks: PartTask[] = [];
  const result = new Promise<SubmissionResult>((resolve) => {
    let encoded;
    try {
      encoded = encodeParts(message, ref);
    } catch (err) {
      const error = `cannot encode: ${(err as Error).message}`;
      resolve({ messageId: message.messageId, parts: [{ carrierId, partNumber: 1, totalParts: 1, smscId: null, error }] });
      return;
    }
    const parts: PartSubmission[] = encoded.map((p) => ({ carrierId, partNumber: p.partNumber, totalParts: p.totalParts, smscId: null }));
    const tracker: MessageTracker = { messageId: message.messageId, parts, remaining: parts.length, resolve };
    tasks = encoded.map((part, index) => ({ params: part.params, tracker, index, requeues: 0, settled: false }));
  });
  return { tasks, result };
}

/** Records the part's outcome (first outcome wins) and resolves the message when it was the last part. */
export function settlePart(task: PartTask, smscId: string | null, error?: string): void {
  if (task.settled) return;
  task.settled = true;
  const part = task.tracker.parts[task.index];
  part.smscId = smscId;
  if (error !== undefined) part.error = error;
  if (--task.tracker.remaining === 0) task.tracker.resolve({ messageId: task.tracker.messageId, parts: task.tracker.parts });
}
