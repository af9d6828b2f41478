/**
 * Bookkeeping of one submit() call: each message becomes one task per part, and the message's result
 * resolves once every one of its parts is settled (accepted with an smscId, failed with an error, or,
 * when the caller asked for it, handed back as temporary or in doubt).
 */
import type { OutboundMessage, PartOutcomeKind, PartSubmission, SubmissionResult } from '../carrier';
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
  /** Temporary failures and doubt go back to the caller (a CarrierGroup) instead of being retried here. */
  handBack: boolean;
}

/**
 * The part tasks of `message` (concatenation reference `message.ref`, else `ref`; only `message.parts`
 * when given) and the promise of its result. A message that cannot be encoded has no tasks and resolves
 * at once with a failed part.
 */
export function partTasks(message: OutboundMessage, ref: number, carrierId: number, handBack = false): { tasks: PartTask[]; result: Promise<SubmissionResult> } {
  let tasks: PartTask[] = [];
  const result = new Promise<SubmissionResult>((resolve) => {
    let encoded;
    try {
      encoded = encodeParts(message, message.ref ?? ref);
    } catch (err) {
      const error = `cannot encode: ${(err as Error).message}`;
      resolve({ messageId: message.messageId, parts: [{ partNumber: 1, totalParts: 1, smscId: null, error, carrierId }] });
      return;
    }
    if (message.parts) {
      const wanted = new Set(message.parts);
      encoded = encoded.filter((p) => wanted.has(p.partNumber));
    }
    const parts: PartSubmission[] = encoded.map((p) => ({ partNumber: p.partNumber, totalParts: p.totalParts, smscId: null, carrierId }));
    const tracker: MessageTracker = { messageId: message.messageId, parts, remaining: parts.length, resolve };
    tasks = encoded.map((part, index) => ({ params: part.params, tracker, index, requeues: 0, settled: false, handBack }));
    if (parts.length === 0) resolve({ messageId: message.messageId, parts });
  });
  return { tasks, result };
}

/** Records the part's outcome (first outcome wins) and resolves the message when it was the last part. */
export function settlePart(task: PartTask, smscId: string | null, error?: string, detail?: { outcome?: PartOutcomeKind; errorCode?: number }): void {
  if (task.settled) return;
  task.settled = true;
  const part = task.tracker.parts[task.index];
  part.smscId = smscId;
  if (error !== undefined) part.error = error;
  if (detail?.outcome !== undefined) part.outcome = detail.outcome;
  if (detail?.errorCode !== undefined) part.errorCode = detail.errorCode;
  if (--task.tracker.remaining === 0) task.tracker.resolve({ messageId: task.tracker.messageId, parts: task.tracker.parts });
}
