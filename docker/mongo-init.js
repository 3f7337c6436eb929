// Run by docker-compose.yml's mongo-init service at every `up`; each step is skipped once done.
// Vigil commits its read models in transactions, which need a replica set: a single node will do.
const admin = db.getSiblingDB('admin');
admin.auth('root', fs.readFileSync('/run/secrets/mongo_root_password', 'utf8').trim());

try {
  rs.status();
} catch (error) {
  if (error.codeName !== 'NotYetInitialized') throw error;
  rs.initiate({ _id: 'rs0', members: [{ _id: 0, host: 'mongo:27017' }] });
}
for (let waited = 0; !db.hello().isWritablePrimary; waited++) {
  if (waited === 60) throw new Error('replica set rs0 elected no primary within 60 s');
  sleep(1000);
}

// Vigil's own user, whose name and password are those of the URL Vigil connects with.
const url = new URL(fs.readFileSync('/run/secrets/vigil_mongodb_url', 'utf8').trim());
const user = decodeURIComponent(url.username);
const pwd = decodeURIComponent(url.password);
const database = process.env.VIGIL_MONGODB_DATABASE || 'vigil';
const roles = [{ role: 'readWrite', db: database }];
if (admin.getUser(user)) admin.updateUser(user, { pwd, roles });
else admin.createUser({ user, pwd, roles });
print(`replica set rs0 has a primary; ${user} may read and write ${database}`);
