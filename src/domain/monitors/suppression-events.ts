import type { DomainEvent } from '../decider.js';
import type { IncidentKind } from './incidents.js';

type Ids = { monitor_id: string; project_id: string };

/**
 * What would have opened an incident, held back by a maintenance window: recorded instead of the
 * incident, naming the window, so the history says why nothing paged. `incident_id` is the one the
 * incident opens under if the problem is still there when the window ends.
 */
export type SuppressionEvent =
  | DomainEvent<
      'IncidentSuppressed',
      Ids & {
        incident_id: string;
        event: IncidentKind;
        cause: string;
        at: string;
        monitor_name: string;
        monitor_slug: string;
        ping_id: string | null;
        window_id: string;
        window_name: string;
        window_ends_at: string;
      }
    >
  /** The problem held back went away inside the window (a SUCCESS, a passing check, …): nothing opens for it. */
  | DomainEvent<'SuppressedIncidentCleared', Ids & { incident_id: string; event: IncidentKind; window_id: string; cleared_at: string; reason: string }>
  /** An open incident's repage fell inside a window: it waits for the window's end. */
  | DomainEvent<'RepageHeld', Ids & { incident_id: string; window_id: string; window_name: string; until: string; at: string }>;
