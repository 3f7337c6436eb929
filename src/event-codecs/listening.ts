import * as t from 'io-ts';
import { oneOf } from './fields.js';

export const listeningEventCodecs = {
  ListeningConfirmed: t.type({ at: t.string, confirm_again_by: t.string }),
  ListeningInterrupted: t.type({ from: t.string, to: t.string, noticed: oneOf(['START', 'RUNNING'], 'Noticed'), silent_seconds: t.number }),
};
