// The container healthcheck: GETs each path given (default /healthz) on this container's own
// listener (VIGIL_HEALTH_PORT in a process without the API, else the API's PORT) and exits 0 only
// if every one answers 200 within the timeout. No curl in the image.
const port = process.env.VIGIL_HEALTH_PORT || process.env.PORT || '8080';
const paths = process.argv.length > 2 ? process.argv.slice(2) : ['/healthz'];
try {
  for (const path of paths) {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(2500) });
    if (response.status !== 200) {
      console.error(`${path}: ${response.status} ${await response.text()}`);
      process.exit(1);
    }
  }
} catch (error) {
  console.error(String(error));
  process.exit(1);
}
