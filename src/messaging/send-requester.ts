/**
 * Who asks for a send: an API key (POST /v1/messages, /v1/list-send) or a dashboard user on the compose
 * page, whose form carries a key so that submitting it twice stores one send.
 */
export interface SendRequester {
  accountId: number;
  /** null for a send from the dashboard. */
  apiKeyId: number | null;
  requestId?: string;
  userId?: number;
  /** The compose form's key (a UUID rendered into the form). */
  formKey?: string;
}

/** The form's key already stored a send (a double submit): nothing new was sent or charged. */
export class SendAlreadySubmitted extends Error {
  constructor(readonly sendId: number) {
    super(`send ${sendId} was already stored under this form key`);
  }
}
