import { z } from 'zod';
import { methodList, type MethodSpec } from '../../contracts/index.js';
import { advertisedSchema } from './advertised-schema.js';
import { offersTool, type ToolProfile } from './tool-profile.js';
import { BRIDGE_NOTES } from './tool-guidance.js';

/** One MCP tool as tools/list describes it. */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
}

export interface BridgeTool {
  spec: MethodSpec<z.ZodType, z.ZodType>;
  definition: ToolDefinition;
  /** The method takes `root`, which the bridge defaults to the repository of its working directory. */
  takesRoot: boolean;
}

/**
 * The tools are the method table's MCP methods that the profile offers: input schemas generated
 * from the contracts' zod params (as JSON Schema, input side: defaults make fields optional, then
 * trimmed to what a model needs), descriptions from their summaries plus the bridge's notes.
 */
export function buildToolCatalog(profile: ToolProfile = 'default', where: 'checkout' | 'remote' = 'checkout'): Map<string, BridgeTool> {
  const tools = new Map<string, BridgeTool>();
  for (const spec of methodList) {
    if (!spec.mcpTool || !offersTool(profile, spec.name)) continue;
    tools.set(spec.name, { spec, definition: definitionOf(spec, where), takesRoot: 'root' in objectShape(spec.params) });
  }
  return tools;
}

function definitionOf(spec: MethodSpec<z.ZodType, z.ZodType>, where: 'checkout' | 'remote'): ToolDefinition {
  const schema = advertisedSchema(z.toJSONSchema(spec.params, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>);
  delete schema.$schema;
  if (spec.name === 'fleet_agent_join') asTheBridgeJoins(schema);
  placeRepository(schema, where);
  const note = BRIDGE_NOTES[spec.name as keyof typeof BRIDGE_NOTES];
  return {
    name: spec.name,
    description: [spec.summary, note].filter(Boolean).join('\n\n'),
    // MCP wants an object schema at the top; a discriminated union (fleet_work_update) is one too.
    inputSchema: { ...schema, type: 'object' },
    annotations: {
      readOnlyHint: !spec.mutates,
      destructiveHint: false,
      idempotentHint: !spec.mutates,
      openWorldHint: false,
    },
  };
}

/**
 * A model never joins as the operator: the role is not offered (and refused if sent anyway). The
 * bridge registers the worktree and the runtime's pid itself, so those are not offered either.
 */
function asTheBridgeJoins(schema: Record<string, unknown>): void {
  const properties = schema.properties as Record<string, { enum?: string[] }>;
  const role = properties.role;
  if (role?.enum) role.enum = role.enum.filter((r) => r !== 'operator');
  delete properties.worktree;
  delete properties.pid;
}

/**
 * How a call names its repository. The stdio bridge runs in a checkout: `root` defaults to its
 * repository, said in the field itself, and `scope` is not offered. A remote agent (/mcp) has no
 * checkout the plane can see: it names the repository by `scope`, and `root` is not offered.
 */
function placeRepository(schema: Record<string, unknown>, where: 'checkout' | 'remote'): void {
  const properties = schema.properties as Record<string, unknown> | undefined;
  if (properties?.root === undefined) return;
  if (where === 'remote') {
    delete properties.root;
    return;
  }
  properties.root = { type: 'string', description: 'Defaults to the repository of the current directory' };
  delete properties.scope;
}

function objectShape(schema: z.ZodType): Record<string, unknown> {
  return schema instanceof z.ZodObject ? schema.shape : {};
}
