import type { z } from 'zod';
import type { LineageEdge, LineageGraph, LineageNode } from '../../../contract/files.ts';
import type { Queryable } from '../../db/pool.ts';
import { AppError } from '../../errors.ts';
import { type FolderViewer, inVisibleFolderSql, viewerParams } from '../folders/folder-visibility.ts';
import { type FileRow, fromRow, toFileRecord } from './files.ts';

type Node = z.infer<typeof LineageNode>;
type Edge = z.infer<typeof LineageEdge>;

interface LinkRow {
  file_id: string;
  job_id: string;
  role: 'input' | 'output';
}

interface JobRow {
  id: string;
  tool: string;
  model: string;
  status: string;
  created_at: Date;
  completed_at: Date | null;
}

/**
 * The graph around a file: upwards, the job that made it and that job's inputs, and their makers in turn;
 * downwards, the jobs that used it and what they made, and so on; at most `depth` jobs away either way.
 * Deleted files stay in the graph (marked `deleted`). Only the team's own jobs and files appear.
 * `truncated` says links were left beyond the depth. As in the listings, files and jobs in a private folder
 * the viewer may not see are left out, and the walk does not go through them; such a root is a 404.
 */
export async function fileLineage(
  db: Queryable,
  viewer: FolderViewer,
  rootId: string,
  depth: number,
  publicUrl: string,
): Promise<LineageGraph> {
  const visible = viewerParams(viewer);
  const { rows: roots } = await db.query<FileRow>(
    `SELECT * FROM files WHERE team_id = $1 AND ${inVisibleFolderSql('folder_id', '$2', '$3')} AND id = $4`,
    [...visible, rootId],
  );
  if (!roots[0]) throw new AppError('not_found', `No file ${rootId}.`);

  const fileIds = new Set<string>([rootId]);
  const jobIds = new Set<string>();
  const edges = new Map<string, Edge>();
  const addEdge = (edge: Edge) => edges.set(`${edge.from}>${edge.to}>${edge.relation}`, edge);
  let truncated = false;

  // Upwards: frontier files → the jobs that output them → those jobs' inputs.
  // Downwards: frontier files → the jobs that took them as input → those jobs' outputs.
  for (const direction of ['up', 'down'] as const) {
    let frontier = [rootId];
    for (let level = 0; frontier.length > 0; level++) {
      const jobsHere = await links(db, visible, frontier, direction === 'up' ? 'output' : 'input');
      if (jobsHere.length === 0) break;
      if (level >= depth) {
        truncated = true;
        break;
      }
      const newJobs = [...new Set(jobsHere.map((l) => l.job_id))];
      for (const l of jobsHere) {
        addEdge(
          l.role === 'output'
            ? { from: l.job_id, to: l.file_id, relation: 'output' }
            : { from: l.file_id, to: l.job_id, relation: 'input' },
        );
      }
      const next = await linksOfJobs(db, visible, newJobs, direction === 'up' ? 'input' : 'output');
      const nextFiles: string[] = [];
      for (const l of next) {
        addEdge(
          l.role === 'output'
            ? { from: l.job_id, to: l.file_id, relation: 'output' }
            : { from: l.file_id, to: l.job_id, relation: 'input' },
        );
        if (!fileIds.has(l.file_id)) nextFiles.push(l.file_id);
        fileIds.add(l.file_id);
      }
      for (const id of newJobs) jobIds.add(id);
      frontier = [...new Set(nextFiles)];
    }
  }

  const nodes: Node[] = [];
  const { rows: files } = await db.query<FileRow>(
    `SELECT * FROM files WHERE team_id = $1 AND ${inVisibleFolderSql('folder_id', '$2', '$3')} AND id = ANY($4::text[])
      ORDER BY created_at, id`,
    [...visible, [...fileIds]],
  );
  for (const row of files) {
    const file = fromRow(row);
    nodes.push({
      kind: 'file',
      id: file.id,
      file: toFileRecord(file, publicUrl),
      deleted: file.deletedAt !== null,
    });
  }
  const { rows: jobs } = await db.query<JobRow>(
    `SELECT id, tool, model, status, created_at, completed_at FROM jobs
      WHERE team_id = $1 AND ${inVisibleFolderSql('folder_id', '$2', '$3')} AND id = ANY($4::text[])
      ORDER BY created_at, id`,
    [...visible, [...jobIds]],
  );
  for (const job of jobs) {
    nodes.push({
      kind: 'job',
      id: job.id,
      job: {
        id: job.id,
        tool: job.tool as never,
        model: job.model,
        status: job.status as never,
        created_at: job.created_at.toISOString(),
        completed_at: job.completed_at?.toISOString() ?? null,
      },
    });
  }
  return { root: rootId, nodes, edges: [...edges.values()], truncated };
}

/** Links of the given role from these files to the team's jobs the viewer may see (`visible`: viewerParams). */
async function links(db: Queryable, visible: unknown[], fileIds: string[], role: 'input' | 'output') {
  const { rows } = await db.query<LinkRow>(
    `SELECT l.file_id, l.job_id, l.role FROM file_lineage l
       JOIN jobs j ON j.id = l.job_id AND j.team_id = $1 AND ${inVisibleFolderSql('j.folder_id', '$2', '$3')}
      WHERE l.file_id = ANY($4::text[]) AND l.role = $5`,
    [...visible, fileIds, role],
  );
  return rows;
}

/** Links of the given role from these jobs to their files the viewer may see (`visible`: viewerParams). */
async function linksOfJobs(db: Queryable, visible: unknown[], jobIds: string[], role: 'input' | 'output') {
  const { rows } = await db.query<LinkRow>(
    `SELECT l.file_id, l.job_id, l.role FROM file_lineage l
       JOIN files ON files.id = l.file_id AND files.team_id = $1 AND ${inVisibleFolderSql('files.folder_id', '$2', '$3')}
      WHERE l.job_id = ANY($4::text[]) AND l.role = $5`,
    [...visible, jobIds, role],
  );
  return rows;
}
