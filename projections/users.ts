import type { Projection } from '../src/projector/projection.js';

export interface UserDocument {
  [key: string]: string;
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  created_at: string;
}

export const usersProjection: Projection<UserDocument> = {
  name: 'users',
  version: 1,
  collection: { name: 'users', indexes: [{ fields: ['id'] }, { fields: ['email'], unique: true }] },
  // Passwords (PasswordSet) are not here: a sign-in reads its hash from the user's stream, so no read model holds one.
  handles: ['UserRegistered', 'UserRenamed'],
  targets: (event) => ({ ids: [event.type === 'UserRegistered' || event.type === 'UserRenamed' ? event.data.user_id : ''] }),
  apply(doc, event) {
    if (event.type === 'UserRenamed') return doc && { ...doc, first_name: event.data.first_name, last_name: event.data.last_name };
    if (event.type !== 'UserRegistered') return doc;
    const { user_id, email, first_name, last_name, registered_at } = event.data;
    return { id: user_id, email, first_name, last_name, created_at: registered_at };
  },
};
