import http from 'node:http';
import { Injectable, OnApplicationShutdown } from '@nestjs/common';

/** Closes the worker's health/metrics listener when the worker shuts down. */
@Injectable()
export class WorkerHttpCloser implements OnApplicationShutdown {
  private server?: http.Server;

  attach(server: http.Server): void {
    this.server = server;
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }
}
