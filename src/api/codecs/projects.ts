import { BodyOf, BoundedString, Email, OneOf, Uuid } from '../validation.js';

export const PROJECT_NAME = BoundedString(1, 100);
export const PROJECT_DESCRIPTION = BoundedString(0, 1000);
export const ASSIGNABLE_ROLES = ['MANAGER', 'MEMBER', 'READONLY'] as const;

export const CreateProjectBody = BodyOf({ name: PROJECT_NAME }, { description: PROJECT_DESCRIPTION });
export const UpdateProjectBody = BodyOf({}, { name: PROJECT_NAME, description: PROJECT_DESCRIPTION });

/** A member is named by `user_id` or by `email` (exactly one; the handler checks). */
export const AddMemberBody = BodyOf({ role: OneOf(ASSIGNABLE_ROLES) }, { user_id: Uuid, email: Email });

export const ChangeMemberBody = BodyOf({ role: OneOf(ASSIGNABLE_ROLES) }, {});
