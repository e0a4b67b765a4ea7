// The pages' globals that TypeScript cannot see in their scripts: the test hooks, which exist
// only behind the test flag (common.js's testing; tests/test_test_hooks.py checks it).
interface Window {
  handlogTable?: any;
  handlogFloor?: any;
  handlogAsOf?: any;
  handlogClock?: any;
  __latencies?: number[];
  __renderMs?: number[];
  __floorUpdates?: number;
  __floorPending?: number;
}
