/**
 * Agent teams (2.1.2xx): a team's config (`teams/session-<8 hex>/config.json`)
 * names its lead and members and what each was asked. Pure data: reads the
 * config, when the build found one inside the source tree, onto the
 * `TeamCreate` call that made the team.
 */
import type { TeamInfo, ToolCall } from './types.js';

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v : undefined);

/** A team config as the model keeps it; undefined when it names no member and no lead. */
export function readTeam(config: Record<string, unknown>): TeamInfo | undefined {
  const members = (Array.isArray(config.members) ? config.members : [])
    .filter((m): m is Record<string, unknown> => !!m && typeof m === 'object' && !Array.isArray(m))
    .map((m) => {
      const name = str(m.name) ?? str(m.agentId) ?? str(m.agent_id);
      if (!name) return undefined;
      const member: TeamInfo['members'][number] = { name };
      const agentType = str(m.agentType) ?? str(m.agent_type) ?? str(m.subagent_type);
      const model = str(m.model);
      const color = str(m.color);
      const prompt = str(m.prompt);
      if (agentType) member.agentType = agentType;
      if (model) member.model = model;
      if (color) member.color = color;
      if (prompt) member.prompt = prompt;
      return member;
    })
    .filter((m): m is TeamInfo['members'][number] => !!m);
  const lead = str(config.leadAgentId) ?? str(config.lead_agent_id) ?? str(config.lead);
  if (!members.length && !lead) return undefined;
  const name = str(config.name) ?? str(config.team_name) ?? str(config.teamName);
  return { ...(name ? { name } : {}), ...(lead ? { lead } : {}), members };
}

/** Puts the team on the `TeamCreate` call that made it: the one of its name, else the only one. */
export function attachTeam(calls: Map<string, ToolCall>, config: Record<string, unknown>): void {
  const team = readTeam(config);
  if (!team) return;
  const creates = [...calls.values()].filter((c) => c.name === 'TeamCreate');
  const named = creates.find((c) => team.name && (str(c.input.team_name) === team.name));
  const call = named ?? (creates.length === 1 ? creates[0] : undefined);
  if (call) call.team = team;
}
