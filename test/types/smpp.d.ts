/**
 * Minimal declarations for the `smpp` package (0.5.x, no bundled types), a devDependency: only what
 * the tests that use it as an independent SMPP peer need. Field names are the SMPP v5 specification's, as the package uses them.
 */
declare module 'smpp' {
  import { EventEmitter } from 'node:events';
  import { Server as NetServer, Socket } from 'node:net';

  /** A request or response PDU. Decoded fields are set as own properties named as in the spec. */
  export class PDU {
    /** A new PDU of this command, or (given a Buffer holding one whole PDU) that PDU decoded. */
    constructor(command: string | Buffer, options?: Record<string, unknown>);
    command: string;
    command_id: number;
    command_status: number;
    sequence_number: number;
    /** Any mandatory parameter or TLV, e.g. system_id, message_id, esm_class, receipted_message_id. */
    [field: string]: unknown;
    response(options?: Record<string, unknown>): PDU;
    toBuffer(): Buffer;
  }

  export interface ConnectOptions {
    host: string;
    port: number;
    tls?: boolean;
    [option: string]: unknown;
  }

  /**
   * A session of the package. Only tests use the package (an independent peer to check our own wire
   * against), and none may write into its state: every property is read-only here, and
   * test/unit/architecture/smpp-package.spec.ts refuses an assignment that gets round it.
   */
  export class Session extends EventEmitter {
    readonly socket: Socket;
    /** Returns false (and never calls back) when the socket is no longer writable. */
    send(pdu: PDU, responseCallback?: (resp: PDU) => void, sendCallback?: (pdu: PDU) => void): boolean;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
  }

  export class Server extends NetServer {}

  export function connect(options: ConnectOptions, listener?: () => void): Session;
  export function createServer(listener: (session: Session) => void): Server;
  /** With key and cert, a TLS server. */
  export function createServer(options: { key: string | Buffer; cert: string | Buffer }, listener: (session: Session) => void): Server;

  /** Command status name → code (ESME_ROK, ESME_RTHROTTLED, …). */
  export const errors: Readonly<Record<string, number>>;
  export const ESME_ROK: number;
  export const ESME_RINVBNDSTS: number;
  export const ESME_RBINDFAIL: number;
  export const ESME_RMSGQFUL: number;
  export const ESME_RTHROTTLED: number;
  export const ESME_RX_T_APPN: number;
}
