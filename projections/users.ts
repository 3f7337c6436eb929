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
  handles: ['UserRegistered'],
  targets: (event) => ({ ids: [event.type === 'UserRegistered' ? event.data.user_id : ''] }),
  apply(doc, event) {
    if (event.type !== 'UserRegistered') return doc;
    const { user_id, email, first_name, last_name, registered_at } = event.data;
    return { id: user_id, email, first_name, last_name, created_at: registered_at };
  },
};
