import { expect } from 'chai';
import type { Decider } from '../../src/domain/decider.js';
import { DomainError, type DomainErrorReason } from '../../src/domain/errors.js';

/** `given(past events).when(command).then(new events)`: the shape of every decider test. */
export function deciderSpec<C, S, E>(decider: Decider<C, S, E>) {
  return {
    given: (events: E[]) => ({
      when: (command: C) => {
        const decide = () => decider.decide(command, events.reduce(decider.evolve, decider.initialState()));
        return {
          then: (expected: E[]) => expect(decide()).to.deep.equal(expected),
          /** For events whose data is generated (ids, hashes): only their types are compared. */
          thenMatches: (predicate: (events: E[]) => boolean) => expect(predicate(decide()), JSON.stringify(decide())).to.equal(true),
          thenEmits: (types: string[]) => expect(decide().map((event) => (event as { type: string }).type)).to.deep.equal(types),
          thenRefuses: (reason: DomainErrorReason, message: RegExp) => {
            let error: unknown;
            try {
              decide();
            } catch (caught) {
              error = caught;
            }
            expect(error, 'expected the command to be refused').to.be.instanceOf(DomainError);
            expect((error as DomainError).reason).to.equal(reason);
            expect((error as DomainError).message).to.match(message);
          },
        };
      },
    }),
  };
}
