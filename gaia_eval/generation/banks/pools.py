"""Pools of people's names, companies, vendors, products, projects and places for synthetic documents.

ASCII-only spellings, so e-mail addresses can be built from names without transliteration.
"""

from __future__ import annotations

FIRST_NAMES: tuple[str, ...] = (
    "Priya", "Tom", "Aisha", "Mateo", "Mei", "Oluwaseun", "Hannah", "Kenji", "Fatima", "Lukas",
    "Sofia", "Dmitri", "Amara", "Carlos", "Yuki", "Nadia", "Ethan", "Leila", "Rahul", "Ingrid",
    "Kwame", "Chloe", "Andrei", "Zanele", "Marcus", "Ana", "Tariq", "Elena", "Jamal", "Sara",
    "Hiroshi", "Grace", "Diego", "Anika", "Samuel", "Lina", "Omar", "Rosa", "Viktor", "Naledi",
    "Ben", "Ximena", "Arjun", "Claire", "Tomasz", "Imani", "Felix", "Mariam", "Jonah", "Soo-ah",
    "Rafael", "Ebony", "Niamh", "Kofi", "Julia", "Farid", "Astrid", "Malik", "Lucia", "Wei",
    "Noor", "Gabriel", "Ayumi", "Dev", "Olga", "Thabo", "Isabel", "Connor", "Layla", "Emeka",
)  # fmt: skip

LAST_NAMES: tuple[str, ...] = (
    "Shah", "Becker", "Okafor", "Rossi", "Nakamura", "Haddad", "Kowalski", "Lindqvist", "Mensah", "Fernandez",
    "Chen", "Ivanova", "Adeyemi", "Murphy", "Tanaka", "Khan", "Novak", "Oliveira", "Schmidt", "Park",
    "Dubois", "Moreno", "Abara", "Bianchi", "Hughes", "Gupta", "Petrov", "Nguyen", "Sato", "Jensen",
    "Mwangi", "Costa", "Reyes", "Hoffmann", "Kim", "Singh", "Larsen", "Alvarez", "Osei", "Weber",
    "Patel", "Yilmaz", "Andersson", "Dlamini", "Walsh", "Ramos", "Fischer", "Suzuki", "Mahmoud", "Brennan",
    "Zhang", "Kaplan", "Romero", "Achebe", "Novotny", "Iyer", "Santos", "Bergstrom", "Farouk", "Mitchell",
    "Lopez", "Hansen", "Obi", "Castillo", "Wagner", "Rahman", "Kovac", "Torres", "Ahmed", "Delgado",
)  # fmt: skip

# (company name, e-mail domain)
COMPANIES: tuple[tuple[str, str], ...] = (
    ("Northwind Logistics", "northwind.io"), ("Brightline Health", "brightlinehealth.com"),
    ("Corvid Analytics", "corvid.ai"), ("Harbor & Pine", "harborpine.com"), ("Lumen Retail", "lumenretail.com"),
    ("Tessellate Labs", "tessellate.dev"), ("Bluefin Payments", "bluefinpay.com"), ("Meridian Foods", "meridianfoods.com"),
    ("Quarry Software", "quarrysoft.com"), ("Aster Mobility", "astermobility.com"), ("Kestrel Energy", "kestrelenergy.com"),
    ("Oakridge Insurance", "oakridge-ins.com"), ("Vantage Learning", "vantagelearning.org"), ("Solstice Media", "solstice.media"),
    ("Granite Cloud", "granitecloud.io"), ("Pinnacle Robotics", "pinnaclerobotics.com"), ("Fennel & Co", "fennelco.com"),
    ("Atlas Freight", "atlasfreight.com"), ("Cobalt Security", "cobaltsec.io"), ("Riverstone Bank", "riverstonebank.com"),
    ("Helix Biotech", "helixbio.com"), ("Wildflower Studios", "wildflowerstudios.com"), ("Summit Outdoor", "summitoutdoor.com"),
    ("Beacon Realty", "beaconrealty.com"), ("Juniper Travel", "junipertravel.com"), ("Orchard Systems", "orchardsys.com"),
    ("Silverline Telecom", "silverline.net"), ("Mosaic Health Partners", "mosaichp.com"), ("Redwood Manufacturing", "redwoodmfg.com"),
    ("Nimbus HR", "nimbushr.com"),
)  # fmt: skip

VENDORS: tuple[str, ...] = (
    "Cloudway", "Datastream", "PrintWorks", "SecureNet", "Omnitrack", "Stackline", "Parcelpoint", "Relay Staffing",
    "Greenleaf Catering", "Metric Labs", "Ironclad Hosting", "Signal Courier", "BrightDesk", "Telemetrix",
    "Clearpath Consulting", "Keystone Facilities", "Pixelcraft Design", "Ledgerly", "Swift Translations", "Uptick Media",
)  # fmt: skip

# Product areas, written to follow "the": "the mobile app".
PRODUCTS: tuple[str, ...] = (
    "mobile app", "customer portal", "analytics dashboard", "checkout flow", "partner API", "billing service",
    "onboarding wizard", "admin console", "search service", "reporting module", "notifications service",
    "inventory system", "scheduling tool", "help center", "data pipeline",
)  # fmt: skip

PROJECTS: tuple[str, ...] = (
    "Atlas", "Bluebird", "Cascade", "Driftwood", "Ember", "Falcon", "Granite", "Harbor", "Iris", "Juniper",
    "Kite", "Lighthouse", "Monarch", "Nova", "Orion", "Polaris", "Quartz", "Redwood", "Sapphire", "Tundra",
    "Umbra", "Vesper", "Willow", "Zephyr", "Aurora", "Beacon", "Comet", "Delta", "Everest", "Fjord",
)  # fmt: skip

CITIES: tuple[str, ...] = (
    "Austin", "Toronto", "Lisbon", "Berlin", "Singapore", "Nairobi", "Denver", "Dublin", "Seattle", "Bangalore",
    "Sao Paulo", "Melbourne", "Chicago", "Amsterdam", "Mexico City", "Boston", "Manchester", "Cape Town",
)  # fmt: skip

VIDEO_TOOLS: tuple[str, ...] = ("Zoom", "Google Meet", "Microsoft Teams", "Webex")

ROOM_NAMES: tuple[str, ...] = (
    "Conference Room 4B", "the Maple room", "the Fishbowl", "Room 2.14", "the Harbor room", "the big conference room",
    "the third-floor huddle room", "the Cedar room",
)  # fmt: skip

TIME_ZONES: tuple[str, ...] = ("PT", "ET", "CT", "GMT", "CET")

# Product features a team might build or customers ask for.
FEATURES: tuple[str, ...] = (
    "bulk export", "saved filters", "dark mode", "two-factor login", "CSV import", "team workspaces",
    "audit log", "scheduled reports",
)  # fmt: skip
