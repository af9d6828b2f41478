import { isOptOut } from '../../../src/inbound/opt-out';

describe(isOptOut.name, () => {
  it.each(['STOP', 'stop', ' Stop please', 'STOP.', 'stop!', 'STOPALL', 'Unsubscribe', 'cancel my sub', 'END', 'quit', '"stop"'])('treats %p as an opt-out', (text) => {
    expect(isOptOut(text)).toBe(true);
  });
  it.each(['', 'please stop', 'Stopping', 'ENDS', 'Cancellation', 'quit2', 'S T O P'])('treats %p as an ordinary reply', (text) => {
    expect(isOptOut(text)).toBe(false);
  });
});
