"""Session 1: chargeback adjustment rows (ADJ) + payout_adjustment table."""
from gen_lib import Session, head, test_lines
from catalog import BASE

BUILD_GRADLE = '''import org.gradle.api.tasks.testing.logging.TestExceptionFormat
import org.gradle.api.tasks.testing.logging.TestLogEvent

plugins {
    id("org.springframework.boot") version "3.3.5"
    id("io.spring.dependency-management") version "1.1.6"
    id("org.jlleitschuh.gradle.ktlint") version "12.1.1"
    kotlin("jvm") version "2.0.21"
    kotlin("plugin.spring") version "2.0.21"
    kotlin("plugin.jpa") version "2.0.21"
}

group = "com.harborpay"
version = "1.15.0-SNAPSHOT"

java {
    toolchain {
        languageVersion = JavaLanguageVersion.of(21)
    }
}

repositories {
    mavenCentral()
}

extra["testcontainersVersion"] = "1.20.3"

dependencies {
    implementation("org.springframework.boot:spring-boot-starter-web")
    implementation("org.springframework.boot:spring-boot-starter-data-jpa")
    implementation("org.springframework.boot:spring-boot-starter-actuator")
    implementation("org.springframework.boot:spring-boot-starter-validation")
    implementation("com.fasterxml.jackson.module:jackson-module-kotlin")
    implementation("org.jetbrains.kotlin:kotlin-reflect")
    implementation("org.flywaydb:flyway-core")
    implementation("org.flywaydb:flyway-database-postgresql")
    implementation("net.javacrumbs.shedlock:shedlock-spring:5.16.0")
    implementation("net.javacrumbs.shedlock:shedlock-provider-jdbc-template:5.16.0")
    implementation("org.springframework.integration:spring-integration-sftp")
    implementation("io.micrometer:micrometer-registry-prometheus")
    runtimeOnly("org.postgresql:postgresql")

    testImplementation("org.springframework.boot:spring-boot-starter-test") {
        exclude(module = "mockito-core")
    }
    testImplementation("com.ninja-squad:springmockk:4.0.2")
    testImplementation("org.testcontainers:junit-jupiter")
    testImplementation("org.testcontainers:postgresql")
    testRuntimeOnly("org.junit.platform:junit-platform-launcher")
}

dependencyManagement {
    imports {
        mavenBom("org.testcontainers:testcontainers-bom:${property("testcontainersVersion")}")
    }
}

kotlin {
    compilerOptions {
        freeCompilerArgs.addAll("-Xjsr305=strict")
    }
}

tasks.withType<Test> {
    useJUnitPlatform()
    testLogging {
        events(TestLogEvent.PASSED, TestLogEvent.SKIPPED, TestLogEvent.FAILED)
        exceptionFormat = TestExceptionFormat.FULL
    }
    afterSuite(
        KotlinClosure2<TestDescriptor, TestResult, Unit>({ desc, result ->
            if (desc.parent == null) {
                println(
                    "Results: ${result.resultType} (${result.testCount} tests, ${result.successfulTestCount} passed, " +
                        "${result.failedTestCount} failed, ${result.skippedTestCount} skipped)",
                )
            }
        }),
    )
}'''

README = '''# harborpay

Payments reconciliation service. Pulls the daily settlement files of our acquirer
(Brightwater Acquiring, "BWA") from their SFTP drop, imports them into Postgres and
matches every settlement line against the ledger postings that `ledger-posting` made at
capture time. Whatever does not match ends up in the daily recon report that finance
reviews every morning (`/api/recon/runs/{date}/report`).

## Stack

- Kotlin 2.0 on JVM 21, Spring Boot 3.3
- Postgres 16; schema managed by Flyway (`src/main/resources/db/migration`)
- JUnit 5 + MockK for unit tests, Testcontainers for `*IT` classes (Docker must be running)
- ShedLock guards the nightly recon job (two pods in prod)

## Running locally

    docker compose up -d postgres
    ./gradlew.bat bootRun --args='--spring.profiles.active=local'

## Tests

    ./gradlew.bat test                  # unit + integration
    ./gradlew.bat test --tests "*IT"    # integration only
    ./gradlew.bat ktlintCheck

The git pre-commit hook (`./gradlew.bat addKtlintCheckGitPreCommitHook`) runs ktlint on the
staged Kotlin files and refuses the commit on violations.

## Layout (`com.harborpay.recon`)

| package     | what                                                   |
|-------------|--------------------------------------------------------|
| `importer`  | Brightwater CSV parsing, batch import, SFTP poller     |
| `ledger`    | ledger-posting client, posting service                 |
| `matching`  | aggregation + matching of settlement vs ledger         |
| `fx`        | FX rates (rates provider, cached per day)              |
| `report`    | daily recon report                                     |
| `job`       | nightly scheduling                                     |

Acquirer file format: `docs/acquirer/brightwater-settlement-spec.md` (spec v3.2).'''

CLAUDE_MD = '''# harborpay - notes for Claude

- Windows machine, Git Bash. Use `./gradlew.bat`, not `./gradlew`.
- `*IT` tests need Docker Desktop running (Testcontainers, postgres:16-alpine).
- Package root: `com.harborpay.recon`.
- Money is `BigDecimal`, never `Double`. Amount columns are `numeric(19,4)` in the db.
- Ticket prefix is HP- (Jira), put it in the commit subject.'''

PARSER_BEFORE = '''package com.harborpay.recon.importer

import com.harborpay.recon.importer.model.*
import org.slf4j.LoggerFactory
import org.springframework.stereotype.Component
import java.io.BufferedReader
import java.math.BigDecimal
import java.time.Instant
import java.time.LocalDate

/**
 * Parses Brightwater settlement CSV (spec v3.2, see docs/acquirer/brightwater-settlement-spec.md).
 *
 * Semicolon separated. Record types: HDR (one), TXN (many), FEE (many), ADJ (many), TRL (one).
 */
@Component
class SettlementCsvParser {
    private val log = LoggerFactory.getLogger(javaClass)

    fun parse(reader: BufferedReader): ParsedSettlementFile {
        var header: BatchHeader? = null
        val transactions = mutableListOf<ParsedTransaction>()
        val fees = mutableListOf<ParsedFee>()
        var trailer: BatchTrailer? = null

        reader.lineSequence().forEachIndexed { idx, raw ->
            if (raw.isBlank()) return@forEachIndexed
            val cols = raw.split(';')
            when (cols[0]) {
                "HDR" -> header = parseHeader(cols)
                "TXN" -> transactions += parseTransaction(cols, idx + 1)
                "FEE" -> fees += parseFee(cols, idx + 1)
                "ADJ" -> log.debug("skipping ADJ record at line {}", idx + 1) // TODO HP-301
                "TRL" -> trailer = parseTrailer(cols)
                else -> throw SettlementParseException("unknown record type '${cols[0]}' at line ${idx + 1}")
            }
        }

        val hdr = header ?: throw SettlementParseException("missing HDR record")
        val trl = trailer ?: throw SettlementParseException("missing TRL record")
        validateTrailer(trl, transactions, fees)
        return ParsedSettlementFile(hdr, transactions, fees, trl)
    }

    private fun parseHeader(cols: List<String>) =
        BatchHeader(
            acquirerCode = cols[1],
            batchRef = cols[2].ifBlank { throw SettlementParseException("HDR without batch ref") },
            settlementDate = LocalDate.parse(cols[3]),
            currency = cols[4],
            specVersion = cols[5],
        )

    private fun parseTransaction(cols: List<String>, lineNo: Int) =
        ParsedTransaction(
            lineNo = lineNo,
            merchantId = cols[1],
            pspReference = cols[2].ifBlank { null },
            arn = cols[3],
            capturedAt = Instant.parse(cols[4]),
            scheme = cols[5],
            type = TransactionType.valueOf(cols[6]),
            originalAmount = parseAmount(cols[7]),
            originalCurrency = cols[8],
            fxRate = BigDecimal(cols[9]),
            settledAmount = parseAmount(cols[10]),
        )

    private fun parseFee(cols: List<String>, lineNo: Int) =
        ParsedFee(lineNo = lineNo, merchantId = cols[1], feeType = cols[2], amount = parseAmount(cols[3]), currency = cols[4])

    private fun parseTrailer(cols: List<String>) = BatchTrailer(recordCount = cols[1].toInt(), total = parseAmount(cols[2]))

    private fun parseAmount(raw: String): BigDecimal = BigDecimal(raw.trim())
}'''

SAMPLE_CSV = '''HDR;BWA;BW-20261028-01;2026-10-28;EUR;3.2
TXN;MRC-20931;PSP-8f3a2c91;74839201928374650123456;2026-10-27T14:22:05Z;VISA;CAPTURE;129.90;EUR;1.00000000;129.90
TXN;MRC-20931;PSP-0b77e412;74839201928374650123470;2026-10-27T15:03:41Z;MC;CAPTURE;54.20;EUR;1.00000000;54.20
TXN;MRC-11204;PSP-c2d9910f;74839201928374650123488;2026-10-27T09:12:10Z;VISA;CAPTURE;1480.00;EUR;1.00000000;1480.00
TXN;MRC-30417;PSP-5e61aa08;74839201928374650123501;2026-10-27T18:40:55Z;VISA;CAPTURE;89.99;GBP;1.14826531;103.33
TXN;MRC-11204;PSP-92fe0c3d;74839201928374650123519;2026-10-27T11:58:02Z;AMEX;REFUND;-220.00;EUR;1.00000000;-220.00
FEE;MRC-20931;INTERCHANGE;-1.38;EUR
FEE;MRC-11204;INTERCHANGE;-9.21;EUR
FEE;MRC-30417;SCHEME;-0.62;EUR
ADJ;MRC-20931;PSP-77d0e1b4;74839201928374650999812;CHARGEBACK;4837 ;(12.50);EUR;2026-10-27
ADJ;MRC-11204;PSP-1a9c55e0;74839201928374650777120;REPRESENTMENT;4853 ;480.00;EUR;2026-10-26
ADJ;MRC-30417;PSP-e0e4c219;74839201928374650888301;CHARGEBACK;10.4 ;(45.90);EUR;2026-10-25
TRL;11;1437.53'''

MIGRATION_V13 = '''-- HP-277: interchange/scheme fees per settlement line
alter table settlement_fee
    add column fee_type varchar(32) not null default 'INTERCHANGE';

create index idx_settlement_fee_batch on settlement_fee (batch_id);'''

V14 = '''-- HP-301: chargeback / representment adjustments from Brightwater ADJ records
create table payout_adjustment (
    id               bigserial primary key,
    batch_id         bigint        not null references settlement_batch (id) on delete cascade,
    merchant_id      varchar(32)   not null,
    psp_reference    varchar(64),
    arn              varchar(32)   not null,
    adjustment_type  varchar(24)   not null,
    reason_code      varchar(8)    not null,
    reason_category  varchar(24)   not null,
    amount           numeric(19,4) not null,
    currency         char(3)       not null,
    dispute_date     date          not null,
    source_line      int           not null,
    created_at       timestamptz   not null default now()
);

create index idx_payout_adjustment_batch on payout_adjustment (batch_id);
create index idx_payout_adjustment_merchant_date on payout_adjustment (merchant_id, dispute_date);'''

ENTITY = '''package com.harborpay.recon.importer.model

import jakarta.persistence.Column
import jakarta.persistence.Entity
import jakarta.persistence.EnumType
import jakarta.persistence.Enumerated
import jakarta.persistence.GeneratedValue
import jakarta.persistence.GenerationType
import jakarta.persistence.Id
import jakarta.persistence.Table
import java.math.BigDecimal
import java.time.LocalDate

@Entity
@Table(name = "payout_adjustment")
class PayoutAdjustment(
    @Column(name = "batch_id", nullable = false) val batchId: Long,
    @Column(name = "merchant_id", nullable = false) val merchantId: String,
    @Column(name = "psp_reference") val pspReference: String?,
    @Column(nullable = false) val arn: String,
    @Enumerated(EnumType.STRING) @Column(name = "adjustment_type", nullable = false) val adjustmentType: AdjustmentType,
    @Column(name = "reason_code", nullable = false) val reasonCode: String,
    @Enumerated(EnumType.STRING) @Column(name = "reason_category", nullable = false) val reasonCategory: ChargebackCategory,
    @Column(nullable = false, precision = 19, scale = 4) val amount: BigDecimal,
    @Column(nullable = false, length = 3) val currency: String,
    @Column(name = "dispute_date", nullable = false) val disputeDate: LocalDate,
    @Column(name = "source_line", nullable = false) val sourceLine: Int,
) {
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    var id: Long? = null
}

enum class AdjustmentType { CHARGEBACK, REPRESENTMENT, CHARGEBACK_REVERSAL }

enum class ChargebackCategory { FRAUD_NO_AUTH, FRAUD_CARD_ABSENT, PROCESSING_ERROR, CONSUMER_DISPUTE, UNKNOWN }'''

REASONS = '''package com.harborpay.recon.importer

import com.harborpay.recon.importer.model.ChargebackCategory

/** Scheme reason codes (Visa 10.x / 13.x, Mastercard 48xx) to our coarse categories. */
internal object ChargebackReasonCodes {
    private val categories =
        mapOf(
            "10.4" to ChargebackCategory.FRAUD_CARD_ABSENT,
            "10.5" to ChargebackCategory.FRAUD_NO_AUTH,
            "11.3" to ChargebackCategory.PROCESSING_ERROR,
            "12.6" to ChargebackCategory.PROCESSING_ERROR,
            "13.1" to ChargebackCategory.CONSUMER_DISPUTE,
            "13.3" to ChargebackCategory.CONSUMER_DISPUTE,
            "4837" to ChargebackCategory.FRAUD_NO_AUTH,
            "4853" to ChargebackCategory.CONSUMER_DISPUTE,
            "4863" to ChargebackCategory.FRAUD_CARD_ABSENT,
            "4834" to ChargebackCategory.PROCESSING_ERROR,
        )

    fun categorize(code: String): ChargebackCategory = categories[code] ?: ChargebackCategory.UNKNOWN
}'''

TEST_ADJ = '''package com.harborpay.recon.importer

import com.harborpay.recon.importer.model.AdjustmentType
import com.harborpay.recon.importer.model.ChargebackCategory
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test
import java.math.BigDecimal

class AdjustmentRowParsingTest {
    private val parser = SettlementCsvParser()

    private fun file(vararg adj: String) =
        (
            listOf("HDR;BWA;BW-TEST-01;2026-10-28;EUR;3.2") + adj.toList() +
                listOf("TRL;${adj.size};0.00")
        ).joinToString("\\n").reader().buffered()

    @Test
    fun `parses chargeback row`() {
        val parsed = parser.parse(file("ADJ;MRC-1;PSP-1;7483;CHARGEBACK;10.4;-45.90;EUR;2026-10-25"))
        val adj = parsed.adjustments.single()
        assertEquals(AdjustmentType.CHARGEBACK, adj.type)
        assertEquals(BigDecimal("-45.90"), adj.amount)
        assertEquals(ChargebackCategory.FRAUD_CARD_ABSENT, adj.category)
    }

    @Test
    fun `parses representment row with positive amount`() {
        val adj = parser.parse(file("ADJ;MRC-1;PSP-2;7484;REPRESENTMENT;4853;480.00;EUR;2026-10-26")).adjustments.single()
        assertEquals(AdjustmentType.REPRESENTMENT, adj.type)
        assertEquals(BigDecimal("480.00"), adj.amount)
    }

    @Test
    fun `parses negative adjustment written in parentheses`() {
        val adj = parser.parse(file("ADJ;MRC-1;PSP-3;7485;CHARGEBACK;4837;(12.50);EUR;2026-10-27")).adjustments.single()
        assertEquals(BigDecimal("-12.50"), adj.amount)
    }

    @Test
    fun `maps reason code 4837 to FRAUD_NO_AUTH`() {
        val adj = parser.parse(file("ADJ;MRC-1;PSP-4;7486;CHARGEBACK;4837 ;-9.99;EUR;2026-10-27")).adjustments.single()
        assertEquals(ChargebackCategory.FRAUD_NO_AUTH, adj.category)
    }

    @Test
    fun `unknown reason code maps to UNKNOWN`() {
        val adj = parser.parse(file("ADJ;MRC-1;PSP-5;7487;CHARGEBACK;9999;-1.00;EUR;2026-10-27")).adjustments.single()
        assertEquals(ChargebackCategory.UNKNOWN, adj.category)
    }

    @Test
    fun `adjustments do not count towards trailer sum`() {
        val parsed = parser.parse(file("ADJ;MRC-1;PSP-6;7488;CHARGEBACK;10.4;-45.90;EUR;2026-10-25"))
        assertEquals(1, parsed.adjustments.size)
    }
}'''


def build(sid):
    s = Session(sid, "2026-11-03T08:47:12", "main")
    s.begin("s1_task")
    s.user("we need to start importing the chargeback adjustment rows from the brightwater settlement csv. "
           "atm the parser just skips anything with record type ADJ (HP-301). need a payout_adjustment table + parse "
           "them into it. have a look around first, im not sure how the batch import wires things")
    s.end("s1_task")
    s.think(
        "The user wants ADJ records from the Brightwater settlement CSV imported into a new payout_adjustment table. "
        "I don't know this repo yet. Things I need before touching anything:\n"
        "- what the project is and how it builds (README, build.gradle.kts, maybe a CLAUDE.md)\n"
        "- where the parser lives and how the ADJ branch currently looks (user says it skips them)\n"
        "- how migrations are numbered (Flyway, so I need the next V number) and what settlement_batch looks like "
        "since adjustments will hang off a batch\n"
        "- how SettlementImportService persists parsed lines, so adjustments get saved in the same transaction\n"
        "- test conventions (JUnit5, MockK? Testcontainers for ITs?)\n\n"
        "This is Windows with Git Bash, so I should use forward-slash paths in bash and ./gradlew.bat. Let me start "
        "with git status and the log to see the branch state, then README and the build file.")
    s.say("I'll get oriented first: repo state, README and the build file.")
    s.bash('cd "C:/Users/amara/src/harborpay" && git status && git log --oneline -8',
           "Check repo state and recent commits",
           "On branch main\nYour branch is up to date with 'origin/main'.\n\nnothing to commit, working tree clean\n"
           "e91c0f4 (HEAD -> main, origin/main) Merge pull request #142 from harborpay/feature/fee-types\n"
           "5d27a13 HP-277 split settlement fees by fee type\n"
           "c4a08b9 HP-283 retry ledger-posting once on 503\n"
           "a41c9d2 Aggregate settlement totals with banker's rounding (HP-290)\n"
           "0f3e6d1 Bump Spring Boot to 3.3.5\n"
           "b88e2c4 HP-271 SFTP poller: archive processed files\n"
           "7a19f5e HP-269 report: mismatch section per merchant\n"
           "31cd0b2 Release 1.14.0")
    s.read("README.md", README)
    s.read("CLAUDE.md", CLAUDE_MD)
    s.read("build.gradle.kts", BUILD_GRADLE)
    s.say("Spring Boot 3.3 / Kotlin 2.0 with Flyway, ktlint plugin and Testcontainers. Now the importer package and the migrations.")
    s.glob("src/main/kotlin/com/harborpay/recon/importer/**/*.kt", [
        "src\\main\\kotlin\\com\\harborpay\\recon\\importer\\SettlementCsvParser.kt",
        "src\\main\\kotlin\\com\\harborpay\\recon\\importer\\SettlementImportService.kt",
        "src\\main\\kotlin\\com\\harborpay\\recon\\importer\\SftpSettlementPoller.kt",
        "src\\main\\kotlin\\com\\harborpay\\recon\\importer\\SettlementParseException.kt",
        "src\\main\\kotlin\\com\\harborpay\\recon\\importer\\ChargebackReasonCodes.kt",
        "src\\main\\kotlin\\com\\harborpay\\recon\\importer\\model\\ParsedSettlementFile.kt",
        "src\\main\\kotlin\\com\\harborpay\\recon\\importer\\model\\SettlementBatch.kt",
        "src\\main\\kotlin\\com\\harborpay\\recon\\importer\\model\\SettlementLine.kt",
        "src\\main\\kotlin\\com\\harborpay\\recon\\importer\\model\\SettlementFee.kt",
        "src\\main\\kotlin\\com\\harborpay\\recon\\importer\\model\\SettlementRepositories.kt",
    ])
    s.read("src/main/kotlin/com/harborpay/recon/importer/SettlementCsvParser.kt", PARSER_BEFORE)
    s.read("src/main/kotlin/com/harborpay/recon/importer/ChargebackReasonCodes.kt", REASONS)
    s.bash('cd "C:/Users/amara/src/harborpay" && ls src/main/resources/db/migration/ && cat src/main/resources/db/migration/V13__settlement_fee_type.sql',
           "List Flyway migrations and show the latest",
           "V10__recon_run_results.sql\nV11__shedlock.sql\nV12__settlement_line_fx_rate.sql\nV13__settlement_fee_type.sql\n"
           "V1__init_schema.sql\nV2__ledger_snapshot.sql\nV3__settlement_batch.sql\nV4__settlement_line_indexes.sql\n"
           "V5__recon_run.sql\nV6__merchant.sql\nV7__settlement_line_scheme.sql\nV8__report_mismatch.sql\n"
           "V9__settlement_fee.sql\n" + MIGRATION_V13)
    s.bash('cd "C:/Users/amara/src/harborpay" && sed -n 1,80p src/main/kotlin/com/harborpay/recon/importer/SettlementImportService.kt',
           "Show the import service",
           '''package com.harborpay.recon.importer

import com.harborpay.recon.importer.model.SettlementBatch
import com.harborpay.recon.importer.model.SettlementBatchRepository
import com.harborpay.recon.importer.model.SettlementFee
import com.harborpay.recon.importer.model.SettlementFeeRepository
import com.harborpay.recon.importer.model.SettlementLine
import com.harborpay.recon.importer.model.SettlementLineRepository
import org.slf4j.LoggerFactory
import org.springframework.stereotype.Service
import org.springframework.transaction.annotation.Transactional
import java.nio.file.Files
import java.nio.file.Path

@Service
class SettlementImportService(
    private val parser: SettlementCsvParser,
    private val batches: SettlementBatchRepository,
    private val lines: SettlementLineRepository,
    private val fees: SettlementFeeRepository,
) {
    private val log = LoggerFactory.getLogger(javaClass)

    @Transactional
    fun import(file: Path): SettlementBatch {
        val parsed = Files.newBufferedReader(file).use { parser.parse(it) }
        val batch =
            batches.save(
                SettlementBatch(
                    acquirerCode = parsed.header.acquirerCode,
                    batchRef = parsed.header.batchRef,
                    settlementDate = parsed.header.settlementDate,
                    currency = parsed.header.currency,
                    fileName = file.fileName.toString(),
                    fileSize = Files.size(file),
                ),
            )
        lines.saveAll(parsed.transactions.map { SettlementLine.from(batch.id!!, it) })
        fees.saveAll(parsed.fees.map { SettlementFee.from(batch.id!!, it) })
        log.info(
            "imported batch {} ({} lines, {} fees) from {}",
            batch.batchRef,
            parsed.transactions.size,
            parsed.fees.size,
            file.fileName,
        )
        return batch
    }
}''')
    s.read("src/test/resources/fixtures/brightwater/BWA_20261028_01.csv", SAMPLE_CSV)
    s.think(
        "Now I have the picture:\n"
        "- SettlementCsvParser.parse() walks the lines; ADJ just logs and is dropped (TODO HP-301).\n"
        "- ADJ column layout from the fixture: ADJ;merchantId;pspRef;arn;type;reasonCode;amount;currency;disputeDate. "
        "Note the fixture has amounts in parentheses like (12.50) for debits and reason codes with a trailing space "
        "('4837 '). Hmm, the TXN amounts use a minus sign (-220.00) but ADJ uses accounting-style parentheses. I'll "
        "write a test for that explicitly, since parseAmount() is just BigDecimal(raw.trim()) and will blow up on '('.\n"
        "- The trailer: TRL;11;1437.53. 5 TXN + 3 FEE + 3 ADJ = 11 records. Sum: TXN settled 129.90+54.20+1480.00+103.33-220.00 "
        "= 1547.43, fees -1.38-9.21-0.62 = -11.21 -> 1536.22. Adjustments -12.50+480.00-45.90 = 421.60 -> 1957.82. "
        "That doesn't match 1437.53 either way... let me not go down that path; validateTrailer exists and presumably "
        "the existing test fixture is used by SettlementImportIT and passes, so the trailer count semantics are whatever "
        "validateTrailer does. I should check whether validateTrailer counts ADJ rows. Actually the safest: adjustments "
        "do not change trailer validation in this change; keep validateTrailer as is and only add adjustments to the "
        "parsed result.\n"
        "- ChargebackReasonCodes already exists with the mapping, keyed by trimmed strings. So the trailing space in "
        "'4837 ' will miss the map unless I trim.\n"
        "- Migrations go up to V13, so the new one is V14. Amount columns are numeric(19,4) per CLAUDE.md.\n"
        "- SettlementImportService saves lines and fees in one @Transactional; I'll add a PayoutAdjustmentRepository "
        "and save adjustments there too.\n\n"
        "Plan: branch, V14 migration, entity + repository, ParsedAdjustment model + parser branch, import service, "
        "unit test class AdjustmentRowParsingTest, then run that class alone, then the whole suite.")
    s.say("Got the picture. ADJ rows are dropped in `SettlementCsvParser.parse()`, migrations are at V13, and `ChargebackReasonCodes` already has the reason code mapping. The fixture has a couple of formatting quirks (`(12.50)` for debits, reason codes with a trailing space), so I'll cover those in the tests. Creating a branch first.")
    s.todo([
        ("Create feature branch", "completed", "Creating feature branch"),
        ("Add V14 payout_adjustment migration", "in_progress", "Adding V14 migration"),
        ("Add PayoutAdjustment entity + repository", "pending", "Adding entity and repository"),
        ("Parse ADJ records in SettlementCsvParser", "pending", "Parsing ADJ records"),
        ("Persist adjustments in SettlementImportService", "pending", "Persisting adjustments"),
        ("Add AdjustmentRowParsingTest and run tests", "pending", "Running tests"),
    ])
    s.bash('cd "C:/Users/amara/src/harborpay" && git checkout -b feature/chargeback-adjustments',
           "Create feature branch", "Switched to a new branch 'feature/chargeback-adjustments'")
    s.branch = "feature/chargeback-adjustments"
    s.write("src/main/resources/db/migration/V14__payout_adjustments.sql", V14)
    s.write("src/main/kotlin/com/harborpay/recon/importer/model/PayoutAdjustment.kt", ENTITY)
    s.edit("src/main/kotlin/com/harborpay/recon/importer/model/SettlementRepositories.kt",
           "interface SettlementFeeRepository : JpaRepository<SettlementFee, Long>",
           "interface SettlementFeeRepository : JpaRepository<SettlementFee, Long>\n\n"
           "interface PayoutAdjustmentRepository : JpaRepository<PayoutAdjustment, Long> {\n"
           "    fun findByBatchId(batchId: Long): List<PayoutAdjustment>\n}",
           "interface SettlementFeeRepository : JpaRepository<SettlementFee, Long>\n\n"
           "interface PayoutAdjustmentRepository : JpaRepository<PayoutAdjustment, Long> {\n"
           "    fun findByBatchId(batchId: Long): List<PayoutAdjustment>\n}", 14)
    s.edit("src/main/kotlin/com/harborpay/recon/importer/model/ParsedSettlementFile.kt",
           "    val fees: List<ParsedFee>,\n    val trailer: BatchTrailer,\n)",
           "    val fees: List<ParsedFee>,\n    val trailer: BatchTrailer,\n    val adjustments: List<ParsedAdjustment> = emptyList(),\n)\n\n"
           "data class ParsedAdjustment(\n    val lineNo: Int,\n    val merchantId: String,\n    val pspReference: String?,\n"
           "    val arn: String,\n    val type: AdjustmentType,\n    val reasonCode: String,\n    val category: ChargebackCategory,\n"
           "    val amount: BigDecimal,\n    val currency: String,\n    val disputeDate: LocalDate,\n)",
           "data class ParsedSettlementFile(\n    val header: BatchHeader,\n    val transactions: List<ParsedTransaction>,\n"
           "    val fees: List<ParsedFee>,\n    val trailer: BatchTrailer,\n    val adjustments: List<ParsedAdjustment> = emptyList(),\n)\n\n"
           "data class ParsedAdjustment(\n    val lineNo: Int,\n    val merchantId: String,", 6)
    s.edit("src/main/kotlin/com/harborpay/recon/importer/SettlementCsvParser.kt",
           '                "ADJ" -> log.debug("skipping ADJ record at line {}", idx + 1) // TODO HP-301',
           '                "ADJ" -> adjustments += parseAdjustment(cols, idx + 1)',
           "        reader.lineSequence().forEachIndexed { idx, raw ->\n            if (raw.isBlank()) return@forEachIndexed\n"
           "            val cols = raw.split(';')\n            when (cols[0]) {\n                \"HDR\" -> header = parseHeader(cols)\n"
           "                \"TXN\" -> transactions += parseTransaction(cols, idx + 1)\n                \"FEE\" -> fees += parseFee(cols, idx + 1)\n"
           "                \"ADJ\" -> adjustments += parseAdjustment(cols, idx + 1)\n                \"TRL\" -> trailer = parseTrailer(cols)", 27)
    s.edit("src/main/kotlin/com/harborpay/recon/importer/SettlementCsvParser.kt",
           "    private fun parseTrailer(cols: List<String>)",
           "    private fun parseAdjustment(cols: List<String>, lineNo: Int) =\n        ParsedAdjustment(\n            lineNo = lineNo,\n"
           "            merchantId = cols[1],\n            pspReference = cols[2].ifBlank { null },\n            arn = cols[3],\n"
           "            type = AdjustmentType.valueOf(cols[4]),\n            reasonCode = cols[5],\n"
           "            category = ChargebackReasonCodes.categorize(cols[5]),\n            amount = parseAmount(cols[6]),\n"
           "            currency = cols[7],\n            disputeDate = LocalDate.parse(cols[8]),\n        )\n\n"
           "    private fun parseTrailer(cols: List<String>)",
           "    private fun parseAdjustment(cols: List<String>, lineNo: Int) =\n        ParsedAdjustment(\n            lineNo = lineNo,\n"
           "            merchantId = cols[1],\n            pspReference = cols[2].ifBlank { null },\n            arn = cols[3],\n"
           "            type = AdjustmentType.valueOf(cols[4]),\n            reasonCode = cols[5],\n"
           "            category = ChargebackReasonCodes.categorize(cols[5]),\n            amount = parseAmount(cols[6]),", 100)
    s.edit("src/main/kotlin/com/harborpay/recon/importer/SettlementImportService.kt",
           "        fees.saveAll(parsed.fees.map { SettlementFee.from(batch.id!!, it) })",
           "        fees.saveAll(parsed.fees.map { SettlementFee.from(batch.id!!, it) })\n"
           "        adjustments.saveAll(parsed.adjustments.map { PayoutAdjustment.from(batch.id!!, it) })",
           "        lines.saveAll(parsed.transactions.map { SettlementLine.from(batch.id!!, it) })\n"
           "        fees.saveAll(parsed.fees.map { SettlementFee.from(batch.id!!, it) })\n"
           "        adjustments.saveAll(parsed.adjustments.map { PayoutAdjustment.from(batch.id!!, it) })", 38)
    s.write("src/test/kotlin/com/harborpay/recon/importer/AdjustmentRowParsingTest.kt", TEST_ADJ)
    s.say("Running just the new test class first.")
    s.begin("s1_fail")
    fail_out = head(main_changed=True, res_changed=True) + "\n" + test_lines(
        [("AdjustmentRowParsingTest", ["parses chargeback row", "parses representment row with positive amount",
                                        "parses negative adjustment written in parentheses",
                                        "maps reason code 4837 to FRAUD_NO_AUTH", "unknown reason code maps to UNKNOWN",
                                        "adjustments do not count towards trailer sum"])],
        fail={
            ("AdjustmentRowParsingTest", "parses negative adjustment written in parentheses"):
                "    java.lang.NumberFormatException: Character ( is neither a decimal digit number, decimal point, nor \"e\" notation exponential mark.\n"
                "        at java.base/java.math.BigDecimal.<init>(BigDecimal.java:608)\n"
                "        at java.base/java.math.BigDecimal.<init>(BigDecimal.java:497)\n"
                "        at java.base/java.math.BigDecimal.<init>(BigDecimal.java:903)\n"
                "        at com.harborpay.recon.importer.SettlementCsvParser.parseAmount(SettlementCsvParser.kt:131)\n"
                "        at com.harborpay.recon.importer.SettlementCsvParser.parseAdjustment(SettlementCsvParser.kt:110)\n"
                "        at com.harborpay.recon.importer.SettlementCsvParser.parse(SettlementCsvParser.kt:35)\n"
                "        at com.harborpay.recon.importer.AdjustmentRowParsingTest.parses negative adjustment written in parentheses(AdjustmentRowParsingTest.kt:38)",
            ("AdjustmentRowParsingTest", "maps reason code 4837 to FRAUD_NO_AUTH"):
                "    org.opentest4j.AssertionFailedError: expected: <FRAUD_NO_AUTH> but was: <UNKNOWN>\n"
                "        at app//org.junit.jupiter.api.AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)\n"
                "        at app//org.junit.jupiter.api.AssertionFailureBuilder.buildAndThrow(AssertionFailureBuilder.java:132)\n"
                "        at app//org.junit.jupiter.api.AssertEquals.failNotEqual(AssertEquals.java:197)\n"
                "        at app//org.junit.jupiter.api.AssertEquals.assertEquals(AssertEquals.java:182)\n"
                "        at app//org.junit.jupiter.api.Assertions.assertEquals(Assertions.java:1156)\n"
                "        at app//com.harborpay.recon.importer.AdjustmentRowParsingTest.maps reason code 4837 to FRAUD_NO_AUTH(AdjustmentRowParsingTest.kt:44)",
        }) + "\nResults: FAILURE (6 tests, 4 passed, 2 failed, 0 skipped)\n\n6 tests completed, 2 failed\n\n> Task :test FAILED\n\n" \
        "FAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':test'.\n" \
        "> There were failing tests. See the report at: file:///C:/Users/amara/src/harborpay/build/reports/tests/test/index.html\n\n" \
        "* Try:\n> Run with --scan to get full insights.\n\nBUILD FAILED in 21s\n7 actionable tasks: 6 executed, 1 up-to-date"
    s.bash('cd "C:/Users/amara/src/harborpay" && ./gradlew.bat test --tests "com.harborpay.recon.importer.AdjustmentRowParsingTest"',
           "Run the new adjustment parsing tests", fail_out, err=True, rdt=24)
    s.think(
        "Two failures, both the quirks I saw in the fixture:\n"
        "1. `(12.50)` -> NumberFormatException in parseAmount at SettlementCsvParser.kt:131. BigDecimal doesn't accept "
        "accounting-style parentheses. Fix: in parseAmount, trim, and if it starts with '(' and ends with ')', strip "
        "them and negate. Should that apply to TXN too? The spec presumably says negative amounts are written with a "
        "minus sign for TXN. Applying it generally is harmless: a TXN amount never contains parentheses today, and if "
        "Brightwater ever starts using them there we'd want them parsed the same way. I'll keep it in the shared "
        "parseAmount.\n"
        "2. '4837 ' with a trailing space -> categorize() misses the map -> UNKNOWN. Fix: trim the reason code before "
        "lookup and also store it trimmed (the db column is varchar(8), and a trailing space would make later "
        "grouping by reason_code in SQL split the same code into two buckets).\n"
        "Better to trim in the parser than in ChargebackReasonCodes, so the stored value is clean too.")
    s.say("Both failures are the formatting quirks from the fixture:\n\n"
          "1. `parses negative adjustment written in parentheses`: `parseAmount()` is a bare `BigDecimal(raw.trim())`, which throws `NumberFormatException` on accounting-style `(12.50)`.\n"
          "2. `maps reason code 4837 to FRAUD_NO_AUTH`: Brightwater pads the reason code (`\"4837 \"`), so the lookup in `ChargebackReasonCodes` misses and falls back to `UNKNOWN`.\n\n"
          "I'll handle parentheses in `parseAmount` and trim the reason code in the parser so it's stored clean too.")
    s.end("s1_fail")
    s.begin("s1_fix")
    s.edit("src/main/kotlin/com/harborpay/recon/importer/SettlementCsvParser.kt",
           "    private fun parseAmount(raw: String): BigDecimal = BigDecimal(raw.trim())",
           "    /** Brightwater writes ADJ debits accounting-style: `(12.50)` means -12.50. */\n"
           "    private fun parseAmount(raw: String): BigDecimal {\n        val s = raw.trim()\n"
           "        return if (s.startsWith(\"(\") && s.endsWith(\")\")) {\n            BigDecimal(s.substring(1, s.length - 1).trim()).negate()\n"
           "        } else {\n            BigDecimal(s)\n        }\n    }",
           "    /** Brightwater writes ADJ debits accounting-style: `(12.50)` means -12.50. */\n"
           "    private fun parseAmount(raw: String): BigDecimal {\n        val s = raw.trim()\n"
           "        return if (s.startsWith(\"(\") && s.endsWith(\")\")) {\n            BigDecimal(s.substring(1, s.length - 1).trim()).negate()\n"
           "        } else {\n            BigDecimal(s)\n        }\n    }", 129)
    s.edit("src/main/kotlin/com/harborpay/recon/importer/SettlementCsvParser.kt",
           "            reasonCode = cols[5],\n            category = ChargebackReasonCodes.categorize(cols[5]),",
           "            reasonCode = cols[5].trim(),\n            category = ChargebackReasonCodes.categorize(cols[5].trim()),",
           "            type = AdjustmentType.valueOf(cols[4]),\n            reasonCode = cols[5].trim(),\n"
           "            category = ChargebackReasonCodes.categorize(cols[5].trim()),\n            amount = parseAmount(cols[6]),", 109)
    s.end("s1_fix")
    s.turn_end(214880)
    s.begin("s1_thousands")
    s.user("oh and brightwater sometimes sends amounts with thousands separators, like 1,204.00. saw it in the oct 14 file. handle that too pls")
    s.say("Good to know. Since the file is semicolon-separated, a comma inside the amount column is safe to strip. I'll handle it in `parseAmount` and add a test.")
    s.edit("src/main/kotlin/com/harborpay/recon/importer/SettlementCsvParser.kt",
           "        val s = raw.trim()",
           "        // thousands separators show up occasionally (\"1,204.00\"); the file is ';'-separated so ',' is safe to drop\n"
           "        val s = raw.trim().replace(\",\", \"\")",
           "    /** Brightwater writes ADJ debits accounting-style: `(12.50)` means -12.50. */\n"
           "    private fun parseAmount(raw: String): BigDecimal {\n"
           "        // thousands separators show up occasionally (\"1,204.00\"); the file is ';'-separated so ',' is safe to drop\n"
           "        val s = raw.trim().replace(\",\", \"\")", 129)
    s.edit("src/test/kotlin/com/harborpay/recon/importer/AdjustmentRowParsingTest.kt",
           "    @Test\n    fun `unknown reason code maps to UNKNOWN`() {",
           "    @Test\n    fun `parses amount with thousands separator`() {\n"
           "        val adj = parser.parse(file(\"ADJ;MRC-1;PSP-7;7489;REPRESENTMENT;4853;1,204.00;EUR;2026-10-14\")).adjustments.single()\n"
           "        assertEquals(BigDecimal(\"1204.00\"), adj.amount)\n    }\n\n"
           "    @Test\n    fun `unknown reason code maps to UNKNOWN`() {",
           "    @Test\n    fun `parses amount with thousands separator`() {\n"
           "        val adj = parser.parse(file(\"ADJ;MRC-1;PSP-7;7489;REPRESENTMENT;4853;1,204.00;EUR;2026-10-14\")).adjustments.single()\n"
           "        assertEquals(BigDecimal(\"1204.00\"), adj.amount)\n    }", 47)
    s.say("Now the full suite, including the Testcontainers ITs (`FlywayMigrationsIT` will apply V14 on a fresh Postgres).")
    classes = list(BASE)
    classes.insert(0, ("AdjustmentRowParsingTest", ["parses chargeback row", "parses representment row with positive amount",
                                                     "parses negative adjustment written in parentheses",
                                                     "maps reason code 4837 to FRAUD_NO_AUTH",
                                                     "parses amount with thousands separator",
                                                     "unknown reason code maps to UNKNOWN",
                                                     "adjustments do not count towards trailer sum"]))
    classes.append(("PayoutAdjustmentImportIT", ["stores adjustments of sample file", "cascades delete with batch"]))
    n = sum(len(m) for _, m in classes)
    pass_out = head(main_changed=True) + "\n" + test_lines(classes) + \
        f"\nResults: SUCCESS ({n} tests, {n} passed, 0 failed, 0 skipped)\n\nBUILD SUCCESSFUL in 1m 38s\n7 actionable tasks: 3 executed, 4 up-to-date"
    s.bash('cd "C:/Users/amara/src/harborpay" && ./gradlew.bat test', "Run the full test suite", pass_out, rdt=101)
    s.end("s1_thousands")
    s.mark_fullpass = len(s.lines)
    s.say(f"All {n} tests pass, including the two new ITs and `FlywayMigrationsIT` applying V14 on a fresh Postgres 16 container. "
          "The adjustment parsing now handles `(12.50)`, `1,204.00` and padded reason codes.")
    s.turn_end(162033)
    s.begin("s1_hook")
    s.user("ok commit it")
    s.bash('cd "C:/Users/amara/src/harborpay" && git add -A && git status --short',
           "Stage changes",
           "M  src/main/kotlin/com/harborpay/recon/importer/SettlementCsvParser.kt\n"
           "M  src/main/kotlin/com/harborpay/recon/importer/SettlementImportService.kt\n"
           "A  src/main/kotlin/com/harborpay/recon/importer/model/PayoutAdjustment.kt\n"
           "M  src/main/kotlin/com/harborpay/recon/importer/model/ParsedSettlementFile.kt\n"
           "M  src/main/kotlin/com/harborpay/recon/importer/model/SettlementRepositories.kt\n"
           "A  src/main/resources/db/migration/V14__payout_adjustments.sql\n"
           "A  src/test/kotlin/com/harborpay/recon/importer/AdjustmentRowParsingTest.kt\n"
           "A  src/test/kotlin/com/harborpay/recon/importer/PayoutAdjustmentImportIT.kt")
    s.bash('cd "C:/Users/amara/src/harborpay" && git commit -m "HP-301 import Brightwater ADJ records into payout_adjustment"',
           "Commit the adjustment import",
           "Running ktlint over these files:\n"
           "src/main/kotlin/com/harborpay/recon/importer/SettlementCsvParser.kt\n"
           "src/main/kotlin/com/harborpay/recon/importer/SettlementImportService.kt\n"
           "src/main/kotlin/com/harborpay/recon/importer/model/PayoutAdjustment.kt\n"
           "src/main/kotlin/com/harborpay/recon/importer/model/ParsedSettlementFile.kt\n"
           "src/main/kotlin/com/harborpay/recon/importer/model/SettlementRepositories.kt\n"
           "src/test/kotlin/com/harborpay/recon/importer/AdjustmentRowParsingTest.kt\n"
           "src/test/kotlin/com/harborpay/recon/importer/PayoutAdjustmentImportIT.kt\n\n"
           "> Task :ktlintMainSourceSetCheck FAILED\n"
           "C:\\Users\\amara\\src\\harborpay\\src\\main\\kotlin\\com\\harborpay\\recon\\importer\\SettlementCsvParser.kt:3:1 Wildcard import (standard:no-wildcard-imports)\n"
           "C:\\Users\\amara\\src\\harborpay\\src\\main\\kotlin\\com\\harborpay\\recon\\importer\\model\\PayoutAdjustment.kt:19:1 Unexpected blank line(s) before \"}\" (standard:no-blank-line-before-rbrace)\n"
           "C:\\Users\\amara\\src\\harborpay\\src\\main\\kotlin\\com\\harborpay\\recon\\importer\\model\\PayoutAdjustment.kt:20:121 Exceeded max line length (120) (standard:max-line-length)\n"
           "C:\\Users\\amara\\src\\harborpay\\src\\main\\kotlin\\com\\harborpay\\recon\\importer\\model\\PayoutAdjustment.kt:22:121 Exceeded max line length (120) (standard:max-line-length)\n\n"
           "FAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':ktlintMainSourceSetCheck'.\n"
           "> A failure occurred while executing org.jlleitschuh.gradle.ktlint.worker.ConsoleReportWorkAction\n"
           "   > KtLint found code style violations. Please see the following reports:\n"
           "     - C:\\Users\\amara\\src\\harborpay\\build\\reports\\ktlint\\ktlintMainSourceSetCheck\\ktlintMainSourceSetCheck.txt\n\n"
           "BUILD FAILED in 6s\n\nktlint found style violations, commit aborted. Run ./gradlew ktlintFormat to fix what can be fixed automatically.",
           err=True, rdt=9)
    s.say("The pre-commit hook rejected it: a wildcard import left over in `SettlementCsvParser.kt`, a blank line before `}` and two lines over 120 chars in `PayoutAdjustment.kt`. `ktlintFormat` should fix the first two; the long `@Enumerated @Column` lines I may have to wrap by hand.")
    s.bash('cd "C:/Users/amara/src/harborpay" && ./gradlew.bat ktlintFormat',
           "Auto-format with ktlint",
           "> Task :ktlintKotlinScriptFormat UP-TO-DATE\n> Task :loadKtlintReporters UP-TO-DATE\n> Task :runKtlintFormatOverKotlinScripts UP-TO-DATE\n"
           "> Task :runKtlintFormatOverMainSourceSet\n"
           "C:\\Users\\amara\\src\\harborpay\\src\\main\\kotlin\\com\\harborpay\\recon\\importer\\model\\PayoutAdjustment.kt:20:121 Exceeded max line length (120) (standard:max-line-length) (cannot be auto-corrected)\n"
           "C:\\Users\\amara\\src\\harborpay\\src\\main\\kotlin\\com\\harborpay\\recon\\importer\\model\\PayoutAdjustment.kt:22:121 Exceeded max line length (120) (standard:max-line-length) (cannot be auto-corrected)\n\n"
           "> Task :ktlintMainSourceSetFormat\n> Task :runKtlintFormatOverTestSourceSet\n> Task :ktlintTestSourceSetFormat\n> Task :ktlintFormat\n\n"
           "BUILD SUCCESSFUL in 5s\n7 actionable tasks: 4 executed, 3 up-to-date", rdt=8)
    s.say("Wildcard import and the blank line are fixed. Wrapping the two long annotation lines manually.")
    s.edit("src/main/kotlin/com/harborpay/recon/importer/model/PayoutAdjustment.kt",
           "    @Enumerated(EnumType.STRING) @Column(name = \"adjustment_type\", nullable = false) val adjustmentType: AdjustmentType,",
           "    @Enumerated(EnumType.STRING)\n    @Column(name = \"adjustment_type\", nullable = false)\n    val adjustmentType: AdjustmentType,",
           "    @Column(nullable = false) val arn: String,\n    @Enumerated(EnumType.STRING)\n    @Column(name = \"adjustment_type\", nullable = false)\n    val adjustmentType: AdjustmentType,", 19)
    s.edit("src/main/kotlin/com/harborpay/recon/importer/model/PayoutAdjustment.kt",
           "    @Enumerated(EnumType.STRING) @Column(name = \"reason_category\", nullable = false) val reasonCategory: ChargebackCategory,",
           "    @Enumerated(EnumType.STRING)\n    @Column(name = \"reason_category\", nullable = false)\n    val reasonCategory: ChargebackCategory,",
           "    @Column(name = \"reason_code\", nullable = false) val reasonCode: String,\n    @Enumerated(EnumType.STRING)\n    @Column(name = \"reason_category\", nullable = false)\n    val reasonCategory: ChargebackCategory,", 23)
    s.bash('cd "C:/Users/amara/src/harborpay" && git add -A && git commit -m "HP-301 import Brightwater ADJ records into payout_adjustment"',
           "Retry the commit",
           "Running ktlint over these files:\n"
           "src/main/kotlin/com/harborpay/recon/importer/SettlementCsvParser.kt\n"
           "src/main/kotlin/com/harborpay/recon/importer/SettlementImportService.kt\n"
           "src/main/kotlin/com/harborpay/recon/importer/model/PayoutAdjustment.kt\n"
           "src/main/kotlin/com/harborpay/recon/importer/model/ParsedSettlementFile.kt\n"
           "src/main/kotlin/com/harborpay/recon/importer/model/SettlementRepositories.kt\n"
           "src/test/kotlin/com/harborpay/recon/importer/AdjustmentRowParsingTest.kt\n"
           "src/test/kotlin/com/harborpay/recon/importer/PayoutAdjustmentImportIT.kt\n\n"
           "BUILD SUCCESSFUL in 4s\n"
           "[feature/chargeback-adjustments 3e9c1a7] HP-301 import Brightwater ADJ records into payout_adjustment\n"
           " 8 files changed, 241 insertions(+), 4 deletions(-)\n"
           " create mode 100644 src/main/kotlin/com/harborpay/recon/importer/model/PayoutAdjustment.kt\n"
           " create mode 100644 src/main/resources/db/migration/V14__payout_adjustments.sql\n"
           " create mode 100644 src/test/kotlin/com/harborpay/recon/importer/AdjustmentRowParsingTest.kt\n"
           " create mode 100644 src/test/kotlin/com/harborpay/recon/importer/PayoutAdjustmentImportIT.kt", rdt=8)
    s.say("Committed as `3e9c1a7` on `feature/chargeback-adjustments`, the hook passed this time.")
    s.end("s1_hook")
    s.turn_end(61210)
    s.begin("s1_conv")
    s.user("ok. for the future: always run ktlintFormat before you commit so we dont keep bouncing off the hook. "
           "and never commit to main directly, always a feature branch + PR. push it and open the pr")
    s.think(
        "Two standing rules from the user: (1) run ./gradlew.bat ktlintFormat before every commit, (2) never commit to "
        "main, always feature branch + PR. I should write these into CLAUDE.md so they persist for future sessions in "
        "this repo - that's where the other project notes live. That's a change to a tracked file though; committing it "
        "on this feature branch is fine, it goes through the same PR. Then push with upstream and open the PR with gh.")
    s.say("Noted, I'll add both rules to `CLAUDE.md` so they stick, then push and open the PR.")
    s.edit("CLAUDE.md",
           "- Ticket prefix is HP- (Jira), put it in the commit subject.",
           "- Ticket prefix is HP- (Jira), put it in the commit subject.\n"
           "- Always run `./gradlew.bat ktlintFormat` before committing (the pre-commit hook runs ktlint and rejects violations).\n"
           "- Never commit to `main` directly: feature branch + PR.",
           "- Money is `BigDecimal`, never `Double`. Amount columns are `numeric(19,4)` in the db.\n"
           "- Ticket prefix is HP- (Jira), put it in the commit subject.\n"
           "- Always run `./gradlew.bat ktlintFormat` before committing (the pre-commit hook runs ktlint and rejects violations).\n"
           "- Never commit to `main` directly: feature branch + PR.", 5)
    s.bash('cd "C:/Users/amara/src/harborpay" && ./gradlew.bat ktlintFormat -q && git add CLAUDE.md && git commit -m "HP-301 note commit conventions in CLAUDE.md"',
           "Format, then commit the CLAUDE.md note",
           "Running ktlint over these files:\n\nBUILD SUCCESSFUL in 2s\n"
           "[feature/chargeback-adjustments 0b6d2fe] HP-301 note commit conventions in CLAUDE.md\n 1 file changed, 2 insertions(+)", rdt=7)
    s.bash('cd "C:/Users/amara/src/harborpay" && git push -u origin feature/chargeback-adjustments',
           "Push the feature branch",
           "Enumerating objects: 38, done.\nCounting objects: 100% (38/38), done.\nDelta compression using up to 16 threads\n"
           "Compressing objects: 100% (17/17), done.\nWriting objects: 100% (22/22), 6.84 KiB | 1.71 MiB/s, done.\n"
           "Total 22 (delta 9), reused 0 (delta 0), pack-reused 0 (from 0)\nremote: Resolving deltas: 100% (9/9), completed with 8 local objects.\n"
           "remote: \nremote: Create a pull request for 'feature/chargeback-adjustments' on GitHub by visiting:\n"
           "remote:      https://github.com/harborpay/harborpay/pull/new/feature/chargeback-adjustments\nremote: \n"
           "To https://github.com/harborpay/harborpay.git\n * [new branch]      feature/chargeback-adjustments -> feature/chargeback-adjustments\n"
           "branch 'feature/chargeback-adjustments' set up to track 'origin/feature/chargeback-adjustments'.", rdt=5)
    s.bash('cd "C:/Users/amara/src/harborpay" && gh pr create --base main --title "HP-301 import Brightwater ADJ records into payout_adjustment" '
           '--body "Parses ADJ (chargeback/representment) records from the Brightwater settlement file and stores them in the new payout_adjustment table (V14).\n\n'
           '- amounts in parentheses are negative, thousands separators stripped\n- reason codes trimmed before categorisation\n- AdjustmentRowParsingTest, PayoutAdjustmentImportIT"',
           "Open the pull request", "https://github.com/harborpay/harborpay/pull/147", rdt=4)
    s.end("s1_conv")
    s.begin("s1_summary")
    s.say("Done. PR: https://github.com/harborpay/harborpay/pull/147\n\n"
          "**What changed (branch `feature/chargeback-adjustments`)**\n"
          "- `V14__payout_adjustments.sql`: new `payout_adjustment` table (FK to `settlement_batch`, `numeric(19,4)` amount, reason code + category, dispute date, source line).\n"
          "- `PayoutAdjustment` entity + `PayoutAdjustmentRepository`; `ParsedAdjustment` in the parsed file model.\n"
          "- `SettlementCsvParser` now parses `ADJ` rows instead of skipping them; `parseAmount()` accepts `(12.50)` as -12.50 and strips thousands separators (`1,204.00`); reason codes are trimmed before the `ChargebackReasonCodes` lookup.\n"
          "- `SettlementImportService` saves adjustments in the same transaction as lines and fees.\n"
          "- Tests: `AdjustmentRowParsingTest` (7) and `PayoutAdjustmentImportIT` (2).\n\n"
          "**Along the way**\n"
          "- The first run of `AdjustmentRowParsingTest` failed twice: `NumberFormatException` on the parenthesised amount and `UNKNOWN` instead of `FRAUD_NO_AUTH` for the padded `\"4837 \"`. Fixed in the parser; the full `./gradlew.bat test` run then passed.\n"
          "- The pre-commit ktlint hook rejected the first commit (wildcard import, blank line before `}`, two lines over 120 chars). `ktlintFormat` fixed two of them and I wrapped the long annotation lines by hand. Commits `3e9c1a7` and `0b6d2fe`.\n"
          "- Your two rules are now in `CLAUDE.md`: run `./gradlew.bat ktlintFormat` before committing, and never commit to `main`, always a feature branch + PR.\n\n"
          "Not done: the trailer validation still ignores ADJ rows. The fixture's `TRL` total doesn't obviously include them, so I left `validateTrailer` alone. Worth checking against the spec before relying on it.")
    s.end("s1_summary")
    s.turn_end(48770)
    return s
