/**
 * One decider per stream type: `decide` turns a command into new events given the state folded
 * from the stream's past events by `evolve`. Both are pure; time arrives in the command as `now`.
 */
export interface Decider<Command, State, Event> {
  initialState: () => State;
  evolve: (state: State, event: Event) => State;
  /** Throws a DomainError to refuse; returns [] when there is nothing to do (a duplicate is harmless). */
  decide: (command: Command, state: State) => Event[];
}

export interface DomainEvent<Type extends string = string, Data extends object = object> {
  type: Type;
  data: Data;
}
