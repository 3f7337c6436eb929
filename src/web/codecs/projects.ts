import * as t from 'io-ts';
import { PROVISIONED_TYPES } from '../../domain/projects/auto-provisioning.js';
import { BodyOf, BoundedString, Email, Integer, OneOf, Uuid } from '../validation.js';
import { Label, Text } from '../labels.js';

export const PROJECT_NAME = Label(1, 100);
export const PROJECT_DESCRIPTION = Text(0, 1000);
export const ASSIGNABLE_ROLES = ['MANAGER', 'MEMBER', 'READONLY'] as const;

export const CreateProjectBody = BodyOf({ name: PROJECT_NAME }, { description: PROJECT_DESCRIPTION });
/** Monitors created by a first ping (`?create=1`): only the fields sent change. */
export const AutoProvisioningBody = BodyOf(
  {},
  {
    enabled: t.boolean,
    max_per_hour: Integer(1, 1000),
    defaults: BodyOf({}, { type: OneOf(PROVISIONED_TYPES), schedule: BoundedString(1, 200), timezone: BoundedString(1, 64), grace_period_seconds: Integer(0, 30 * 24 * 3600) }),
  },
);

export const UpdateProjectBody = BodyOf({}, { name: PROJECT_NAME, description: PROJECT_DESCRIPTION, auto_provisioning: AutoProvisioningBody });

/** A member is named by `user_id` or by `email` (exactly one; the handler checks). */
export const AddMemberBody = BodyOf({ role: OneOf(ASSIGNABLE_ROLES) }, { user_id: Uuid, email: Email });

export const ChangeMemberBody = BodyOf({ role: OneOf(ASSIGNABLE_ROLES) }, {});
