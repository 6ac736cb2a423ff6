/**
 * @packageDocumentation
 * @hermes/skills — scaffold. Skills: reusable procedures the agent loads on demand from `SKILL.md` files. See README.md for the planned API.
 */
export {};
