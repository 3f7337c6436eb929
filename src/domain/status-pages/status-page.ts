import type { Decider, DomainEvent } from '../decider.js';
import { invalid, notFound } from '../errors.js';

/** A monitor a status page shows, under the name the public reads (its own name when none is given). */
export interface StatusPageMonitor {
  monitor_id: string;
  display_name: string | null;
}

/** Everything a status page's owner chooses; every event carries all of it, as it then stood. */
export interface StatusPageSettings {
  slug: string;
  title: string;
  description: string;
  /** Opt-in: an unpublished page answers 404 to the public. */
  published: boolean;
  monitors: StatusPageMonitor[];
}

export type StatusPageEvent =
  | DomainEvent<'StatusPageCreated', { status_page_id: string; project_id: string } & StatusPageSettings & { created_at: string }>
  | DomainEvent<'StatusPageUpdated', { status_page_id: string; project_id: string } & StatusPageSettings & { updated_at: string }>
  | DomainEvent<'StatusPageDeleted', { status_page_id: string; project_id: string; slug: string; deleted_at: string }>;

export type StatusPageCommand =
  | { type: 'CreateStatusPage'; status_page_id: string; project_id: string; settings: StatusPageSettings; now: string }
  | { type: 'UpdateStatusPage'; status_page_id: string; patch: Partial<StatusPageSettings>; now: string }
  | { type: 'DeleteStatusPage'; status_page_id: string; now: string };

export interface StatusPageState {
  status: 'absent' | 'active' | 'deleted';
  projectId: string | null;
  settings: StatusPageSettings | null;
}

export const MAX_STATUS_PAGE_MONITORS = 50;

export const statusPageStream = (statusPageId: string) => `statuspage-${statusPageId}`;

function checked(settings: StatusPageSettings): StatusPageSettings {
  const seen = new Set<string>();
  for (const { monitor_id } of settings.monitors) {
    if (seen.has(monitor_id)) throw invalid(`monitors: monitor ${monitor_id} is listed twice`);
    seen.add(monitor_id);
  }
  if (settings.monitors.length > MAX_STATUS_PAGE_MONITORS) throw invalid(`monitors: a status page shows at most ${MAX_STATUS_PAGE_MONITORS} monitors`);
  return settings;
}

const same = (a: StatusPageSettings, b: StatusPageSettings) => JSON.stringify(a) === JSON.stringify(b);

export const statusPageDecider: Decider<StatusPageCommand, StatusPageState, StatusPageEvent> = {
  initialState: () => ({ status: 'absent', projectId: null, settings: null }),

  evolve(state, event) {
    switch (event.type) {
      case 'StatusPageCreated':
      case 'StatusPageUpdated': {
        const { slug, title, description, published, monitors } = event.data;
        return { status: 'active', projectId: event.data.project_id, settings: { slug, title, description, published, monitors } };
      }
      case 'StatusPageDeleted':
        return { ...state, status: 'deleted' };
      default: {
        const exhaustive: never = event;
        return exhaustive;
      }
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'CreateStatusPage': {
        if (state.status !== 'absent') return [];
        const { status_page_id, project_id, now } = command;
        return [{ type: 'StatusPageCreated', data: { status_page_id, project_id, ...checked(command.settings), created_at: now } }];
      }
      case 'UpdateStatusPage': {
        if (state.status !== 'active' || !state.settings || !state.projectId) throw notFound('status page not found');
        const next = checked({ ...state.settings, ...command.patch });
        if (same(next, state.settings)) return [];
        return [{ type: 'StatusPageUpdated', data: { status_page_id: command.status_page_id, project_id: state.projectId, ...next, updated_at: command.now } }];
      }
      case 'DeleteStatusPage': {
        if (state.status === 'deleted') return [];
        if (state.status !== 'active' || !state.settings || !state.projectId) throw notFound('status page not found');
        return [{ type: 'StatusPageDeleted', data: { status_page_id: command.status_page_id, project_id: state.projectId, slug: state.settings.slug, deleted_at: command.now } }];
      }
      default: {
        const exhaustive: never = command;
        return exhaustive;
      }
    }
  },
};
