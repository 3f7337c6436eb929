import * as t from 'io-ts';
import { SCOPES } from '../../domain/access/scopes.js';
import { KEY_LIFETIME_DAYS } from '../../domain/identity/user.js';
import { BodyOf, Integer, OneOf, Uuid } from '../validation.js';
import { Label } from '../labels.js';

export const API_KEY_ENVS = ['live', 'test'] as const;

/** `project_id` makes a project-scoped key (fixed permissions); otherwise `scopes` are chosen. */
export const CreateApiKeyBody = BodyOf(
  { name: Label(1, 100), expires_in_days: Integer(KEY_LIFETIME_DAYS.min, KEY_LIFETIME_DAYS.max) },
  { scopes: t.array(OneOf(SCOPES)), project_id: Uuid, env: OneOf(API_KEY_ENVS) },
);
