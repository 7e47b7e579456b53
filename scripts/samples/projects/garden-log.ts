/** garden-log, the small Python project of the third sample: its files when the session starts. */
import { createProject, type Project } from '../dsl/project.js';

export const GARDEN_CWD = '/home/demo/projects/garden-log';

const SCHEDULER_PY = `"""Decides which plants need a watering reminder today."""
from datetime import date, timedelta

from .models import Plant, Zone


def due_today(plants: list[Plant], zones: list[Zone], today: date) -> list[Plant]:
    """Plants whose watering interval has run out, zone by zone."""
    due: list[Plant] = []
    for zone in zones:
        for plant in plants:
            if not zone.contains(plant):
                continue
            if today - plant.last_watered >= timedelta(days=plant.every_days):
                due.append(plant)
    return due
`;

const MODELS_PY = `"""Plants, zones and how they fit inside each other."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date


@dataclass(frozen=True)
class Plant:
    id: int
    name: str
    zone_id: int
    every_days: int
    last_watered: date


@dataclass
class Zone:
    id: int
    name: str
    children: list[Zone] = field(default_factory=list)

    def contains(self, plant: Plant) -> bool:
        """True for plants in this zone or in any zone nested inside it."""
        if plant.zone_id == self.id:
            return True
        return any(child.contains(plant) for child in self.children)
`;

/** The project as the session finds it. */
export function gardenLogProject(): Project {
  return createProject(GARDEN_CWD, {
    'garden_log/scheduler.py': SCHEDULER_PY,
    'garden_log/models.py': MODELS_PY,
  });
}
