/** The docker CLI invocations the docker backend makes, as plain argument lists. */

/** How the session's container is made. */
export interface DockerContainerSpec {
  readonly image: string;
  readonly name: string;
  /** Host directory mounted read-write at `workdir`. */
  readonly hostWorkspace?: string;
  /** Where commands start inside the container. Default `/workspace`. */
  readonly workdir: string;
  readonly network: boolean;
  /** Extra `-v host:container[:ro]` mounts. */
  readonly volumes: readonly string[];
  /** Memory limit such as `2g`. */
  readonly memory?: string;
  /** CPU limit such as `1.5`. */
  readonly cpus?: string;
}

/** `docker run` that starts the long-lived session container doing nothing but waiting. */
export function dockerRunArgs(spec: DockerContainerSpec): string[] {
  const args = ['run', '-d', '--rm', '--init', '--name', spec.name, '--label', 'hermes.sandbox=1'];
  args.push('--cap-drop', 'ALL', '--security-opt', 'no-new-privileges', '--pids-limit', '4096');
  if (!spec.network) args.push('--network', 'none');
  if (spec.memory) args.push('--memory', spec.memory);
  if (spec.cpus) args.push('--cpus', spec.cpus);
  if (spec.hostWorkspace) args.push('-v', `${spec.hostWorkspace}:${spec.workdir}`);
  for (const volume of spec.volumes) args.push('-v', volume);
  args.push(
    '-w',
    spec.workdir,
    spec.image,
    'sh',
    '-c',
    'trap "exit 0" TERM; while :; do sleep 3600 & wait; done',
  );
  return args;
}

/** `docker exec` that runs one wrapper script with stdin attached. */
export function dockerExecArgs(container: string, script: string): string[] {
  return ['exec', '-i', container, '/bin/sh', '-c', script];
}

/** `docker exec` that kills a process group inside the container, TERM then KILL. */
export function dockerKillArgs(container: string, pid: number, graceSeconds: number): string[] {
  const kill = `kill -TERM -${pid} 2>/dev/null || kill -TERM ${pid}; sleep ${graceSeconds}; kill -KILL -${pid} 2>/dev/null || kill -KILL ${pid} 2>/dev/null; true`;
  return ['exec', container, '/bin/sh', '-c', kill];
}

/** `docker rm -f` that removes the session container. */
export function dockerRemoveArgs(container: string): string[] {
  return ['rm', '-f', container];
}
