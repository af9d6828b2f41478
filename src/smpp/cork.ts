import type { Socket } from 'node:net';

const corked = new WeakSet<Socket>();

/**
 * Holds the socket's writes until the end of this tick, so the PDUs written in one tick (a window of
 * submits, a group commit's deliver_sm_resps) go out as one writev instead of one syscall each.
 */
export function corkForThisTick(socket: Socket): void {
  if (corked.has(socket)) return;
  corked.add(socket);
  socket.cork();
  process.nextTick(() => {
    corked.delete(socket);
    socket.uncork();
  });
}
