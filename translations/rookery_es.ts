<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="es_ES">
<context>
    <name>Autostart</name>
    <message>
        <source>Cannot create the folder %1</source>
        <translation>No se puede crear la carpeta %1</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>No se puede escribir %1: %2</translation>
    </message>
    <message>
        <source>Cannot remove %1: %2</source>
        <translation>No se puede eliminar %1: %2</translation>
    </message>
    <message>
        <source>Cannot change %1</source>
        <translation>No se puede cambiar %1</translation>
    </message>
    <message>
        <source>A program path with a line break cannot start with the session</source>
        <translation>Una ruta de programa con un salto de línea no puede iniciarse con la sesión</translation>
    </message>
</context>
<context>
    <name>Format</name>
    <message>
        <source>%1 GiB</source>
        <translation>%1 GiB</translation>
    </message>
    <message>
        <source>%1 MiB</source>
        <translation>%1 MiB</translation>
    </message>
    <message>
        <source>%1 KiB</source>
        <translation>%1 KiB</translation>
    </message>
    <message>
        <source>%1 B</source>
        <translation>%1 B</translation>
    </message>
    <message>
        <source>%1 / %2 GiB</source>
        <translation>%1 / %2 GiB</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 min %2 s</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 h %2 min</translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <translation>%1 d %2 h</translation>
    </message>
    <message>
        <source>%1 PFLOP</source>
        <translation>%1 PFLOP</translation>
    </message>
    <message>
        <source>%1 TFLOP</source>
        <translation>%1 TFLOP</translation>
    </message>
    <message>
        <source>%1 TFLOP/s</source>
        <translation>%1 TFLOP/s</translation>
    </message>
    <message>
        <source>%1 GFLOP/s</source>
        <translation>%1 GFLOP/s</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>%1 °C</source>
        <translation>%1 °C</translation>
    </message>
    <message>
        <source>%1 W of %2 W</source>
        <translation>%1 W de %2 W</translation>
    </message>
    <message>
        <source>%1 W</source>
        <translation>%1 W</translation>
    </message>
    <message>
        <source>Not running</source>
        <translation>Detenido</translation>
    </message>
    <message>
        <source>Starting</source>
        <translation>Iniciando</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>En pausa</translation>
    </message>
    <message>
        <source>Contributing</source>
        <translation>Contribuyendo</translation>
    </message>
    <message>
        <source>Stopping</source>
        <translation>Deteniéndose</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Error</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>Desconocido</translation>
    </message>
    <message>
        <source>%1 GFLOP</source>
        <translation>%1 GFLOP</translation>
    </message>
    <message>
        <source>block %1 of %2</source>
        <translation>bloque %1 de %2</translation>
    </message>
    <message>
        <source>blocks %1–%2 of %3</source>
        <translation>bloques %1–%2 de %3</translation>
    </message>
    <message>
        <source>%1 samples/s</source>
        <translation>%1 muestras/s</translation>
    </message>
</context>
<context>
    <name>Reasons</name>
    <message>
        <source>Measuring this PC&apos;s compute speed</source>
        <translation>Midiendo la velocidad de cálculo de este PC</translation>
    </message>
    <message>
        <source>Paused: press Contribute to start</source>
        <translation>En pausa: pulse Contribuir para empezar</translation>
    </message>
    <message>
        <source>Slowed: %1</source>
        <translation>Ralentizado: %1</translation>
    </message>
    <message>
        <source>Paused: %1</source>
        <translation>En pausa: %1</translation>
    </message>
    <message>
        <source>Training stage %1 of %2 in pipeline %3 (%4)</source>
        <translation>Entrenando la etapa %1 de %2 en la canalización %3 (%4)</translation>
    </message>
    <message>
        <source>Volunteer of job “%1”</source>
        <translation>Voluntario del trabajo «%1»</translation>
    </message>
    <message>
        <source>Volunteer of job “%1”: %2</source>
        <translation>Voluntario del trabajo «%1»: %2</translation>
    </message>
    <message>
        <source>Benchmark: matrix products on %1</source>
        <translation>Prueba de rendimiento: productos de matrices en %1</translation>
    </message>
    <message>
        <source>Stopping: saving state</source>
        <translation>Deteniéndose: guardando el estado</translation>
    </message>
    <message>
        <source>Cannot start: %1</source>
        <translation>No puede iniciarse: %1</translation>
    </message>
    <message>
        <source>Work failed: %1</source>
        <translation>El trabajo falló: %1</translation>
    </message>
    <message>
        <source>snoozed until %1</source>
        <translation>pospuesto hasta las %1</translation>
    </message>
    <message>
        <source>outside the hours of the schedule</source>
        <translation>fuera del horario programado</translation>
    </message>
    <message>
        <source>on battery</source>
        <translation>con batería</translation>
    </message>
    <message>
        <source>%1 is running</source>
        <translation>%1 se está ejecutando</translation>
    </message>
    <message>
        <source>a full-screen application runs</source>
        <translation>se ejecuta una aplicación a pantalla completa</translation>
    </message>
    <message>
        <source>the PC is in use</source>
        <translation>el PC está en uso</translation>
    </message>
    <message>
        <source>the PC is idle and computing while idle is off</source>
        <translation>el PC está inactivo y calcular mientras está inactivo está desactivado</translation>
    </message>
    <message>
        <source>the PC is in use and the GPU is not used then</source>
        <translation>el PC está en uso y entonces no se usa la GPU</translation>
    </message>
    <message>
        <source>GPU at %1, above %2</source>
        <translation>GPU a %1, por encima de %2</translation>
    </message>
    <message>
        <source>other programs use %1 of the CPU (resumes below %2)</source>
        <translation>otros programas usan el %1 de la CPU (se reanuda por debajo del %2)</translation>
    </message>
    <message>
        <source>other programs use %1 of the CPU</source>
        <translation>otros programas usan el %1 de la CPU</translation>
    </message>
    <message>
        <source>memory %1, more than the %2 allowed</source>
        <translation>memoria %1, más de los %2 permitidos</translation>
    </message>
    <message>
        <source>the PC is idle</source>
        <translation>el PC está inactivo</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n core(s)</source>
        <translation>
            <numerusform>%1 de %n núcleo</numerusform>
            <numerusform>%1 de %n núcleos</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 CPU time</source>
        <translation>%1 de tiempo de CPU</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>, </source>
        <translation>, </translation>
    </message>
    <message>
        <source>connecting to the coordinator</source>
        <translation>conectando con el coordinador</translation>
    </message>
    <message>
        <source>connected (version %1)</source>
        <translation>conectado (versión %1)</translation>
    </message>
    <message>
        <source>unreachable: %1</source>
        <translation>inaccesible: %1</translation>
    </message>
    <message>
        <source>joined job “%1”</source>
        <translation>unido al trabajo «%1»</translation>
    </message>
    <message>
        <source>refused this PC: %1</source>
        <translation>rechazó este PC: %1</translation>
    </message>
    <message>
        <source>banned this PC from the job: %1</source>
        <translation>excluyó este PC del trabajo: %1</translation>
    </message>
    <message>
        <source>the coordinator runs no job</source>
        <translation>el coordinador no ejecuta ningún trabajo</translation>
    </message>
    <message>
        <source>the coordinator runs another job (“%1”)</source>
        <translation>el coordinador ejecuta otro trabajo («%1»)</translation>
    </message>
    <message>
        <source>the job is invite-only and this invite is not valid</source>
        <translation>el trabajo es solo por invitación y esta invitación no es válida</translation>
    </message>
    <message>
        <source>this invite has expired; ask the job&apos;s owner for a new one</source>
        <translation>esta invitación ha caducado; pide una nueva al propietario del trabajo</translation>
    </message>
    <message>
        <source>the job&apos;s owner revoked this invite</source>
        <translation>el propietario del trabajo revocó esta invitación</translation>
    </message>
    <message>
        <source>this PC&apos;s addresses are not TCP addresses</source>
        <translation>las direcciones de este PC no son direcciones TCP</translation>
    </message>
    <message>
        <source>this PC&apos;s measured speed, memory or network look implausible</source>
        <translation>la velocidad, la memoria o la red medidas de este PC no parecen plausibles</translation>
    </message>
    <message>
        <source>a ring partner proved, by its own signatures, that it handed the ring false averaged values</source>
        <translation>un compañero de anillo demostró, con sus propias firmas, que entregó al anillo valores promediados falsos</translation>
    </message>
    <message numerus="yes">
        <source>%1 of its %n ring partner(s) reject its averaging contributions</source>
        <translation>
            <numerusform>%1 de su %n compañero de anillo rechaza sus contribuciones al promedio</numerusform>
            <numerusform>%1 de sus %n compañeros de anillo rechazan sus contribuciones al promedio</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of the %n stage(s) it sends to caught its activations wrong in spot-checks</source>
        <translation>
            <numerusform>%1 de la %n etapa a la que envía detectó activaciones erróneas en las comprobaciones</numerusform>
            <numerusform>%1 de las %n etapas a las que envía detectaron activaciones erróneas en las comprobaciones</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of the %n stage(s) it returns gradients to caught its gradients wrong in spot-checks</source>
        <translation>
            <numerusform>%1 de la %n etapa a la que devuelve gradientes detectó gradientes erróneos en las comprobaciones</numerusform>
            <numerusform>%1 de las %n etapas a las que devuelve gradientes detectaron gradientes erróneos en las comprobaciones</numerusform>
        </translation>
    </message>
    <message>
        <source>a spare: its pipeline is faster without this PC, which waits to fill a seat that falls empty</source>
        <translation>de reserva: su canalización es más rápida sin este PC, que espera a ocupar un puesto que quede libre</translation>
    </message>
    <message>
        <source>every pipeline of its bandwidth tier already has one PC per block</source>
        <translation>cada canalización de su nivel de ancho de banda ya tiene un PC por bloque</translation>
    </message>
    <message>
        <source>the volunteers together do not hold the model yet (%1)</source>
        <translation>los voluntarios juntos aún no pueden alojar el modelo (%1)</translation>
    </message>
    <message>
        <source>it joined after the plan was made</source>
        <translation>se unió después de hacerse el plan</translation>
    </message>
    <message>
        <source>unreachable: training on with the last plan</source>
        <translation>inaccesible: se sigue entrenando con el último plan</translation>
    </message>
    <message>
        <source>pipeline %1, stage %2</source>
        <translation>canalización %1, etapa %2</translation>
    </message>
    <message>
        <source>waiting for a plan</source>
        <translation>esperando un plan</translation>
    </message>
    <message>
        <source>not in the plan: %1</source>
        <translation>fuera del plan: %1</translation>
    </message>
    <message>
        <source>re-planning</source>
        <translation>replanificando</translation>
    </message>
    <message>
        <source>joining again (the coordinator restarted)</source>
        <translation>uniéndose de nuevo (el coordinador se reinició)</translation>
    </message>
    <message>
        <source>fetching the job&apos;s data: %1 of %2</source>
        <translation>descargando los datos del trabajo: %1 de %2</translation>
    </message>
    <message>
        <source>no pipeline yet: %1</source>
        <translation>todavía no hay pipeline: %1</translation>
    </message>
    <message>
        <source>the coordinator ignored this PC&apos;s report</source>
        <translation>el coordinador ignoró el informe de este PC</translation>
    </message>
    <message>
        <source>the coordinator cannot check invites (%1)</source>
        <translation>el coordinador no puede comprobar las invitaciones (%1)</translation>
    </message>
    <message>
        <source>no volunteer holds the job&apos;s data yet</source>
        <translation>ningún voluntario tiene aún los datos del trabajo</translation>
    </message>
    <message>
        <source>no other PC can reach this one yet, and no relay carries it</source>
        <translation>ningún otro PC puede alcanzar este todavía, y ningún relé lo transporta</translation>
    </message>
    <message>
        <source>input idleness</source>
        <translation>inactividad de entrada</translation>
    </message>
    <message>
        <source>full-screen</source>
        <translation>pantalla completa</translation>
    </message>
    <message>
        <source>battery</source>
        <translation>batería</translation>
    </message>
    <message>
        <source>programs</source>
        <translation>programas</translation>
    </message>
    <message>
        <source>CPU load</source>
        <translation>carga de CPU</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>memory</source>
        <translation>memoria</translation>
    </message>
    <message>
        <source>no input for %1</source>
        <translation>sin entrada desde hace %1</translation>
    </message>
    <message>
        <source>nothing reports it here: the PC counts as in use</source>
        <translation>aquí nada la informa: el PC cuenta como en uso</translation>
    </message>
    <message>
        <source>no desktop session reports it</source>
        <translation>ninguna sesión de escritorio lo informa</translation>
    </message>
    <message>
        <source>no full-screen application</source>
        <translation>ninguna aplicación a pantalla completa</translation>
    </message>
    <message>
        <source>on mains power</source>
        <translation>conectado a la red eléctrica</translation>
    </message>
    <message>
        <source>no programs listed</source>
        <translation>no hay programas en la lista</translation>
    </message>
    <message>
        <source>running: %1</source>
        <translation>en ejecución: %1</translation>
    </message>
    <message numerus="yes">
        <source>none of the %n listed program(s) runs</source>
        <translation>
            <numerusform>%n programa en la lista, no se ejecuta</numerusform>
            <numerusform>no se ejecuta ninguno de los %n programas de la lista</numerusform>
        </translation>
    </message>
    <message>
        <source>other programs %1</source>
        <translation>otros programas %1</translation>
    </message>
    <message>
        <source>hottest GPU %1</source>
        <translation>GPU más caliente %1</translation>
    </message>
    <message>
        <source>%1 resident</source>
        <translation>%1 residentes</translation>
    </message>
    <message>
        <source>Compute while I use the PC</source>
        <translation>Calcular mientras uso el PC</translation>
    </message>
    <message>
        <source>Compute while the PC is idle</source>
        <translation>Calcular mientras el PC está inactivo</translation>
    </message>
    <message>
        <source>CPU cores</source>
        <translation>Núcleos de CPU</translation>
    </message>
    <message>
        <source>CPU time</source>
        <translation>Tiempo de CPU</translation>
    </message>
    <message>
        <source>Use the GPU</source>
        <translation>Usar la GPU</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Memoria</translation>
    </message>
    <message>
        <source>The PC is idle after no input for</source>
        <translation>El PC está inactivo tras no recibir entrada durante</translation>
    </message>
    <message>
        <source>Pause while other programs use more CPU than</source>
        <translation>Pausar mientras otros programas usen más CPU que</translation>
    </message>
    <message>
        <source>Pause on battery</source>
        <translation>Pausar con batería</translation>
    </message>
    <message>
        <source>Compute only at these times (empty: any time)</source>
        <translation>Calcular solo en estos horarios (vacío: a cualquier hora)</translation>
    </message>
    <message>
        <source>Upload at most</source>
        <translation>Subir como máximo</translation>
    </message>
    <message>
        <source>Download at most</source>
        <translation>Descargar como máximo</translation>
    </message>
    <message>
        <source>Pause while a full-screen application runs</source>
        <translation>Pausar mientras se ejecute una aplicación a pantalla completa</translation>
    </message>
    <message>
        <source>Pause while these programs run</source>
        <translation>Pausar mientras se ejecuten estos programas</translation>
    </message>
    <message>
        <source>Pause the GPU above</source>
        <translation>Pausar la GPU por encima de</translation>
    </message>
    <message>
        <source>On pause, finish the micro-batches already started (peers see a clean stop)</source>
        <translation>Al pausar, terminar los microlotes ya iniciados (los pares ven una parada limpia)</translation>
    </message>
    <message>
        <source>% of cores</source>
        <translation>% de los núcleos</translation>
    </message>
    <message>
        <source>% of the time</source>
        <translation>% del tiempo</translation>
    </message>
    <message>
        <source>% of RAM</source>
        <translation>% de la RAM</translation>
    </message>
    <message>
        <source>min</source>
        <translation>min</translation>
    </message>
    <message>
        <source>% (0: never)</source>
        <translation>% (0: nunca)</translation>
    </message>
    <message>
        <source>KiB/s (0: unlimited)</source>
        <translation>KiB/s (0: sin límite)</translation>
    </message>
    <message>
        <source>°C (0: no limit)</source>
        <translation>°C (0: sin límite)</translation>
    </message>
    <message>
        <source>no NVIDIA driver</source>
        <translation>sin controlador de NVIDIA</translation>
    </message>
    <message>
        <source>the NVIDIA driver&apos;s library is too old</source>
        <translation>la biblioteca del controlador de NVIDIA es demasiado antigua</translation>
    </message>
    <message>
        <source>the NVIDIA driver did not start (is it loaded?)</source>
        <translation>el controlador de NVIDIA no arrancó (¿está cargado?)</translation>
    </message>
    <message>
        <source>the NVIDIA driver reports no GPU</source>
        <translation>el controlador de NVIDIA no informa de ninguna GPU</translation>
    </message>
    <message numerus="yes">
        <source>%n NVIDIA GPU(s)</source>
        <translation>
            <numerusform>%n GPU de NVIDIA</numerusform>
            <numerusform>%n GPU de NVIDIA</numerusform>
        </translation>
    </message>
    <message>
        <source>Reached on this PC only: the swarm runs here</source>
        <translation>Accesible solo en este PC: el enjambre se ejecuta aquí</translation>
    </message>
    <message>
        <source>Reached directly at %1</source>
        <translation>Accesible directamente en %1</translation>
    </message>
    <message>
        <source>Reached through the router&apos;s port mapping (%1) at %2</source>
        <translation>Accesible mediante la asignación de puertos del router (%1) en %2</translation>
    </message>
    <message>
        <source>Reached through a relay at %1: peers&apos; traffic passes it encrypted</source>
        <translation>Accesible mediante un relé en %1: el tráfico de los pares pasa por él cifrado</translation>
    </message>
    <message>
        <source>Reached by connection reversal: this PC dials its neighbours itself</source>
        <translation>Accesible por inversión de conexión: este PC llama él mismo a sus vecinos</translation>
    </message>
    <message>
        <source>Not reachable from the internet: waiting for a relay to carry this PC</source>
        <translation>No accesible desde Internet: esperando un relé que transmita el tráfico de este PC</translation>
    </message>
    <message>
        <source>Reached by connection reversal (%1): this PC dials its neighbours itself</source>
        <translation>Accesible por inversión de conexión (%1): este PC llama él mismo a sus vecinos</translation>
    </message>
    <message>
        <source>Not reachable from the internet (%1): waiting for a relay to carry this PC</source>
        <translation>No accesible desde Internet (%1): esperando un relé que transmita el tráfico de este PC</translation>
    </message>
    <message numerus="yes">
        <source>the job admits at most %n volunteer(s) from one address, and already has them from %1</source>
        <translation>
            <numerusform>el trabajo admite como máximo %n voluntario desde una dirección, y ya lo tiene desde %1</numerusform>
            <numerusform>el trabajo admite como máximo %n voluntarios desde una dirección, y ya los tiene desde %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>the job admits at most %n volunteer(s) from one network, and already has them from %1</source>
        <translation>
            <numerusform>el trabajo admite como máximo %n voluntario desde una red, y ya lo tiene desde %1</numerusform>
            <numerusform>el trabajo admite como máximo %n voluntarios desde una red, y ya los tiene desde %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>the job asks each join for a proof of work of %n bit(s), and this one carried none</source>
        <translation>
            <numerusform>el trabajo pide con cada unión una prueba de trabajo de %n bit, y esta no traía ninguna</numerusform>
            <numerusform>el trabajo pide con cada unión una prueba de trabajo de %n bits, y esta no traía ninguna</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>this join&apos;s proof of work gives %1 of the %n bit(s) the job asks for</source>
        <translation>
            <numerusform>la prueba de trabajo de esta unión da %1 del %n bit que pide el trabajo</numerusform>
            <numerusform>la prueba de trabajo de esta unión da %1 de los %n bits que pide el trabajo</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Rookery: lend this PC to a swarm that trains a neural network together.</source>
        <translation>Rookery: presta este PC a un enjambre que entrena una red neuronal en común.</translation>
    </message>
    <message>
        <source>Folder of rookery-node&apos;s control sockets (default: $XDG_RUNTIME_DIR/rookery).</source>
        <translation>Carpeta de los sockets de control de rookery-node (predeterminada: $XDG_RUNTIME_DIR/rookery).</translation>
    </message>
    <message>
        <source>The rookery-node program to start when none runs.</source>
        <translation>El programa rookery-node que se inicia cuando no hay ninguno en ejecución.</translation>
    </message>
    <message>
        <source>Start in the tray, without opening the window.</source>
        <translation>Iniciar en la bandeja del sistema, sin abrir la ventana.</translation>
    </message>
    <message>
        <source>Contribute at once: ask rookery-node to contribute as soon as it answers (starting it when none runs).</source>
        <translation>Contribuir de inmediato: pedir a rookery-node que contribuya en cuanto responda (iniciándolo si no hay ninguno en ejecución).</translation>
    </message>
    <message>
        <source>Light or dark colours, or those of the desktop (default: the appearance/colours setting, else system).</source>
        <translation>Colores claros u oscuros, o los del escritorio (predeterminado: el ajuste appearance/colours; si no, system).</translation>
    </message>
    <message>
        <source>Rookery could not snooze</source>
        <translation>Rookery no pudo posponer</translation>
    </message>
    <message>
        <source>An invite link to join (rookery://join?…): Rookery offers to join its swarm.</source>
        <translation>Un enlace de invitación (rookery://join?…): Rookery ofrece unirse a su enjambre.</translation>
    </message>
</context>
<context>
    <name>rookery::ui::ContributionCard</name>
    <message>
        <source>%1 per day</source>
        <translation>%1 al día</translation>
    </message>
    <message>
        <source>%1 TFLOP</source>
        <translation>%1 TFLOP</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 h</translation>
    </message>
    <message>
        <source>Your contribution</source>
        <translation>Tu contribución</translation>
    </message>
    <message>
        <source>Credit</source>
        <translation>Crédito</translation>
    </message>
    <message>
        <source>credits</source>
        <translation>créditos</translation>
    </message>
    <message>
        <source>Recent average credit</source>
        <translation>Crédito medio reciente</translation>
    </message>
    <message>
        <source>Recent average credit: credits per day, averaged so that credit earned a week ago counts half (as BOINC computes it)</source>
        <translation>Crédito medio reciente: créditos al día, promediados de modo que el crédito obtenido hace una semana cuenta la mitad (como lo calcula BOINC)</translation>
    </message>
    <message>
        <source>Ledger status</source>
        <translation>Estado del registro</translation>
    </message>
    <message>
        <source>Samples processed</source>
        <translation>Muestras procesadas</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>Cómputo</translation>
    </message>
    <message>
        <source>Hours contributed</source>
        <translation>Horas aportadas</translation>
    </message>
    <message>
        <source>Data sent</source>
        <translation>Datos enviados</translation>
    </message>
    <message>
        <source>Data received</source>
        <translation>Datos recibidos</translation>
    </message>
    <message>
        <source>Confirmed by the swarm</source>
        <translation>Confirmado por el enjambre</translation>
    </message>
    <message>
        <source>The samples of this PC&apos;s work that the stages receiving it confirmed to the coordinator, and the credit they are worth: the run credits confirmed work only</source>
        <translation>Las muestras del trabajo de este PC que las etapas que lo recibieron confirmaron al coordinador, y el crédito que valen: la ejecución solo acredita el trabajo confirmado</translation>
    </message>
    <message>
        <source>%1 samples · %2 credits</source>
        <translation>%1 muestras · %2 créditos</translation>
    </message>
    <message>
        <source>Time this PC spent computing for the swarm</source>
        <translation>Tiempo que este PC ha dedicado a calcular para el enjambre</translation>
    </message>
    <message>
        <source>Floating-point operations of the micro-batches this PC trained (1 TFLOP = 10¹² operations; 1 credit = 0.432 TFLOP)</source>
        <translation>Operaciones de coma flotante de los microlotes que entrenó este PC (1 TFLOP = 10¹² operaciones; 1 crédito = 0,432 TFLOP)</translation>
    </message>
    <message>
        <source>Per day</source>
        <translation>Por día</translation>
    </message>
    <message>
        <source>Show credit per day</source>
        <translation>Mostrar el crédito por día</translation>
    </message>
    <message>
        <source>Per hour</source>
        <translation>Por hora</translation>
    </message>
    <message>
        <source>Show credit per hour</source>
        <translation>Mostrar el crédito por hora</translation>
    </message>
    <message>
        <source>%1: %2 credits, %3 samples</source>
        <translation>%1: %2 créditos, %3 muestras</translation>
    </message>
    <message>
        <source>Credit chart</source>
        <translation>Gráfico de créditos</translation>
    </message>
    <message>
        <source>History not available: %1</source>
        <translation>Historial no disponible: %1</translation>
    </message>
    <message>
        <source>This rookery-node keeps no ledger</source>
        <translation>Este rookery-node no lleva registro</translation>
    </message>
    <message>
        <source>Recent average: %1</source>
        <translation>Media reciente: %1</translation>
    </message>
    <message numerus="yes">
        <source>Not saved yet (%n unit(s) waiting): %1</source>
        <translation>
            <numerusform>Aún sin guardar (%n unidad en espera): %1</numerusform>
            <numerusform>Aún sin guardar (%n unidades en espera): %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Shown once rookery-node answers</source>
        <translation>Se mostrará en cuanto responda rookery-node</translation>
    </message>
    <message>
        <source>Your contribution is shown once rookery-node answers.</source>
        <translation>Tu contribución aparecerá en cuanto responda rookery-node.</translation>
    </message>
    <message>
        <source>This rookery-node keeps no ledger, so there is no history to show.</source>
        <translation>Este rookery-node no lleva registro, así que no hay historial que mostrar.</translation>
    </message>
    <message>
        <source>Loading the history…</source>
        <translation>Cargando el historial…</translation>
    </message>
    <message>
        <source>Nothing contributed yet. This PC runs a local benchmark, which earns no credit: credit comes with each micro-batch it trains for a pipeline.</source>
        <translation>Aún no has contribuido nada. Este PC ejecuta una prueba local, que no da crédito: el crédito llega con cada microlote que entrena para una canalización.</translation>
    </message>
    <message>
        <source>Nothing contributed yet: each micro-batch this PC trains earns credit (1 credit = 432 GFLOP, as in BOINC).</source>
        <translation>Aún no has contribuido nada: cada microlote que entrena este PC da crédito (1 crédito = 432 GFLOP, como en BOINC).</translation>
    </message>
    <message numerus="yes">
        <source>Credit per day, the last %n day(s)</source>
        <translation>
            <numerusform>Crédito por día, %n día</numerusform>
            <numerusform>Crédito por día, los últimos %n días</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Credit per hour, the last %n hour(s)</source>
        <translation>
            <numerusform>Crédito por hora, %n hora</numerusform>
            <numerusform>Crédito por hora, las últimas %n horas</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>%1: %2 credits in all, most on %3 (%4). %5</source>
        <translation>%1: %2 créditos en total, la mayor parte en %3 (%4). %5</translation>
    </message>
    <message>
        <source>Credit: %1</source>
        <translation>Crédito: %1</translation>
    </message>
</context>
<context>
    <name>rookery::ui::CoordinatorProbe</name>
    <message>
        <source>The coordinator at %1 answered (Rookery %2, %3 ms).</source>
        <translation>El coordinador en %1 respondió (Rookery %2, %3 ms).</translation>
    </message>
    <message>
        <source>Cannot reach the coordinator at %1. Check the address and your internet connection; the coordinator may also be down or behind a firewall.</source>
        <translation>No se puede contactar con el coordinador en %1. Comprueba la dirección y tu conexión a internet; también puede que el coordinador esté caído o detrás de un cortafuegos.</translation>
    </message>
    <message>
        <source>Something answers at %1, but not the coordinator this link names: the secure handshake failed. Ask the job owner for a new invite link.</source>
        <translation>Algo responde en %1, pero no el coordinador que indica este enlace: falló el establecimiento de la conexión segura. Pide al propietario del trabajo un nuevo enlace de invitación.</translation>
    </message>
    <message>
        <source>The coordinator at %1 refused this PC: it admits only volunteers on its list. Ask the job owner to add this PC, or for another invite.</source>
        <translation>El coordinador en %1 rechazó este PC: solo admite a los voluntarios de su lista. Pide al propietario del trabajo que añada este PC o que te dé otra invitación.</translation>
    </message>
    <message>
        <source>The coordinator at %1 refused: %2</source>
        <translation>El coordinador en %1 lo rechazó: %2</translation>
    </message>
    <message>
        <source>The coordinator at %1 accepted the connection but did not answer. It may be overloaded; try again later.</source>
        <translation>El coordinador en %1 aceptó la conexión pero no respondió. Puede que esté sobrecargado; inténtalo más tarde.</translation>
    </message>
    <message>
        <source>%1 is not a Rookery coordinator.</source>
        <translation>%1 no es un coordinador de Rookery.</translation>
    </message>
    <message>
        <source>Could not contact the coordinator at %1: %2</source>
        <translation>No se pudo contactar con el coordinador en %1: %2</translation>
    </message>
    <message>
        <source>The coordinator at %1 answers but runs no job yet. Ask the job owner when the job starts.</source>
        <translation>El coordinador en %1 responde, pero aún no ejecuta ningún trabajo. Pregunta al propietario del trabajo cuándo empieza.</translation>
    </message>
    <message>
        <source>The coordinator at %1 runs the job “%2”, not “%3” as the link says. Ask the job owner for a new invite link.</source>
        <translation>El coordinador en %1 ejecuta el trabajo «%2», no «%3» como indica el enlace. Pide al propietario del trabajo un nuevo enlace de invitación.</translation>
    </message>
</context>
<context>
    <name>rookery::ui::DemoSwarm</name>
    <message>
        <source>rookery-node was not found</source>
        <translation>no se encontró rookery-node</translation>
    </message>
    <message>
        <source>rookery-coordinator was not found beside rookery-node</source>
        <translation>no se encontró rookery-coordinator junto a rookery-node</translation>
    </message>
    <message>
        <source>the demo job (demo-job.json) was not found; set ROOKERY_DEMO_JOB</source>
        <translation>no se encontró el trabajo de demostración (demo-job.json); define ROOKERY_DEMO_JOB</translation>
    </message>
    <message>
        <source>cannot create %1</source>
        <translation>no se puede crear %1</translation>
    </message>
    <message>
        <source>no free port on 127.0.0.1</source>
        <translation>no hay ningún puerto libre en 127.0.0.1</translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation>no se puede escribir %1</translation>
    </message>
    <message>
        <source>could not start %1</source>
        <translation>no se pudo iniciar %1</translation>
    </message>
    <message>
        <source>the demo coordinator did not start; see %1</source>
        <translation>el coordinador de demostración no arrancó; consulta %1</translation>
    </message>
    <message>
        <source>the demo coordinator wrote no address to %1</source>
        <translation>el coordinador de demostración no escribió ninguna dirección en %1</translation>
    </message>
    <message>
        <source>%1 is not a job spec with an id</source>
        <translation>%1 no es una especificación de trabajo con identificador</translation>
    </message>
    <message>
        <source>%1 could not size the demo job: %2</source>
        <translation>%1 no pudo calcular la memoria que necesita el trabajo de demostración: %2</translation>
    </message>
</context>
<context>
    <name>rookery::ui::DeviceCard</name>
    <message>
        <source>Device</source>
        <translation>Dispositivo</translation>
    </message>
    <message>
        <source>Device name</source>
        <translation>Nombre del dispositivo</translation>
    </message>
    <message>
        <source>GPU memory</source>
        <translation>Memoria de la GPU</translation>
    </message>
    <message>
        <source>Utilisation</source>
        <translation>Uso</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>Temperatura</translation>
    </message>
    <message>
        <source>Power</source>
        <translation>Potencia</translation>
    </message>
    <message>
        <source>Processor</source>
        <translation>Procesador</translation>
    </message>
    <message>
        <source>Cores</source>
        <translation>Núcleos</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Memoria</translation>
    </message>
    <message>
        <source>PC load</source>
        <translation>Carga del PC</translation>
    </message>
    <message>
        <source>Rookery&apos;s share</source>
        <translation>Parte de Rookery</translation>
    </message>
    <message>
        <source>Math library</source>
        <translation>Biblioteca matemática</translation>
    </message>
    <message>
        <source>Measured speed</source>
        <translation>Velocidad medida</translation>
    </message>
    <message numerus="yes">
        <source>%n logical core(s)</source>
        <translation>
            <numerusform>%n núcleo lógico</numerusform>
            <numerusform>%n núcleos lógicos</numerusform>
        </translation>
    </message>
    <message>
        <source>GPU · computes on %1</source>
        <translation>GPU · calcula en %1</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message numerus="yes">
        <source>%n more GPU(s) in this PC</source>
        <translation>
            <numerusform>%n GPU más en este PC</numerusform>
            <numerusform>%n GPU más en este PC</numerusform>
        </translation>
    </message>
    <message>
        <source>CPU · computes on the processor</source>
        <translation>CPU · calcula en el procesador</translation>
    </message>
    <message>
        <source>Unknown processor</source>
        <translation>Procesador desconocido</translation>
    </message>
    <message>
        <source>No GPU telemetry: %1</source>
        <translation>Sin telemetría de la GPU: %1</translation>
    </message>
    <message numerus="yes">
        <source>%1 · Rookery uses %n</source>
        <translation>
            <numerusform>%1 · Rookery usa %n</numerusform>
            <numerusform>%1 · Rookery usa %n</numerusform>
        </translation>
    </message>
    <message>
        <source>measuring…</source>
        <translation>midiendo…</translation>
    </message>
    <message>
        <source>Waiting for rookery-node</source>
        <translation>Esperando a rookery-node</translation>
    </message>
    <message>
        <source>This PC</source>
        <translation>Este PC</translation>
    </message>
    <message>
        <source>The device is shown once rookery-node answers.</source>
        <translation>El dispositivo aparecerá en cuanto responda rookery-node.</translation>
    </message>
    <message>
        <source>Recent load</source>
        <translation>Carga reciente</translation>
    </message>
    <message>
        <source>%1: now %2, highest %3</source>
        <translation>%1: ahora %2, máximo %3</translation>
    </message>
    <message>
        <source>%1 is not used for training</source>
        <translation>%1 no se usa para entrenar</translation>
    </message>
    <message>
        <source>%1 is not used for training: %2</source>
        <translation>%1 no se usa para entrenar: %2</translation>
    </message>
</context>
<context>
    <name>rookery::ui::FirstRunDialog</name>
    <message>
        <source>Welcome to Rookery</source>
        <translation>Te damos la bienvenida a Rookery</translation>
    </message>
    <message>
        <source>Join a training swarm</source>
        <translation>Únete a un enjambre de entrenamiento</translation>
    </message>
    <message>
        <source>Rookery lends this PC to a swarm of volunteers who train a neural network together. Choose the swarm to join; you can pause or quit at any time.</source>
        <translation>Rookery presta este PC a un enjambre de voluntarios que entrenan juntos una red neuronal. Elige el enjambre al que unirte; puedes pausar o salir en cualquier momento.</translation>
    </message>
    <message>
        <source>Join the &amp;demo swarm</source>
        <translation>Unirse al enjambre de &amp;demostración</translation>
    </message>
    <message>
        <source>A small language model trained by a few volunteers on this PC: see Rookery at work within a minute.</source>
        <translation>Un pequeño modelo de lenguaje entrenado por unos pocos voluntarios en este PC: verás Rookery en acción en menos de un minuto.</translation>
    </message>
    <message>
        <source>Or paste an &amp;invite link from a job owner:</source>
        <translation>O pega un enlace de &amp;invitación del propietario de un trabajo:</translation>
    </message>
    <message>
        <source>Paste the &amp;invite link a job owner gave you:</source>
        <translation>Pega el enlace de &amp;invitación que te dio el propietario del trabajo:</translation>
    </message>
    <message>
        <source>Invite link</source>
        <translation>Enlace de invitación</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Estado</translation>
    </message>
    <message>
        <source>&amp;Join</source>
        <translation>&amp;Unirse</translation>
    </message>
    <message>
        <source>&amp;Not now</source>
        <translation>&amp;Ahora no</translation>
    </message>
    <message>
        <source>Rookery computes a local benchmark until this PC joins a swarm.</source>
        <translation>Rookery calcula una prueba local hasta que este PC se una a un enjambre.</translation>
    </message>
    <message>
        <source>Job “%1” at coordinator %2.</source>
        <translation>Trabajo «%1» en el coordinador %2.</translation>
    </message>
    <message>
        <source>This is not a valid invite link: %1.</source>
        <translation>No es un enlace de invitación válido: %1.</translation>
    </message>
    <message>
        <source>Starting the demo swarm on this PC…</source>
        <translation>Iniciando el enjambre de demostración en este PC…</translation>
    </message>
    <message>
        <source>The demo swarm could not start: %1</source>
        <translation>No se pudo iniciar el enjambre de demostración: %1</translation>
    </message>
    <message>
        <source>Contacting the coordinator at %1…</source>
        <translation>Contactando con el coordinador en %1…</translation>
    </message>
</context>
<context>
    <name>rookery::ui::InviteLink</name>
    <message>
        <source>the link names no coordinator</source>
        <translation>el enlace no indica ningún coordinador</translation>
    </message>
    <message>
        <source>the coordinator must be a tcp://host:port address, not “%1”</source>
        <translation>el coordinador debe ser una dirección tcp://host:port, no «%1»</translation>
    </message>
    <message>
        <source>“%1” is not a valid tcp://host:port address</source>
        <translation>«%1» no es una dirección tcp://host:port válida</translation>
    </message>
    <message>
        <source>the coordinator&apos;s port must be between 1 and 65535, not %1</source>
        <translation>el puerto del coordinador debe estar entre 1 y 65535, no %1</translation>
    </message>
    <message>
        <source>the link has no coordinator key</source>
        <translation>el enlace no tiene la clave del coordinador</translation>
    </message>
    <message>
        <source>the coordinator key must be 40 characters long, it has %1</source>
        <translation>la clave del coordinador debe tener 40 caracteres, tiene %1</translation>
    </message>
    <message>
        <source>the coordinator key contains “%1”, which is not a Z85 character</source>
        <translation>la clave del coordinador contiene «%1», que no es un carácter Z85</translation>
    </message>
    <message>
        <source>the link names no job</source>
        <translation>el enlace no indica ningún trabajo</translation>
    </message>
    <message>
        <source>the job id is longer than %1 characters</source>
        <translation>el identificador del trabajo supera los %1 caracteres</translation>
    </message>
    <message>
        <source>the job id may hold only letters, digits, &apos;.&apos;, &apos;-&apos; and &apos;_&apos;</source>
        <translation>el identificador del trabajo solo puede contener letras, dígitos, &apos;.&apos;, &apos;-&apos; y &apos;_&apos;</translation>
    </message>
    <message>
        <source>paste an invite link</source>
        <translation>pega un enlace de invitación</translation>
    </message>
    <message>
        <source>the link is longer than %1 characters</source>
        <translation>el enlace supera los %1 caracteres</translation>
    </message>
    <message>
        <source>an invite link starts with rookery://join?</source>
        <translation>un enlace de invitación empieza por rookery://join?</translation>
    </message>
    <message>
        <source>“%1” in the link is not a name=value pair (is the key percent-encoded?)</source>
        <translation>«%1» en el enlace no es un par name=value (¿la clave usa codificación por porcentaje?)</translation>
    </message>
    <message>
        <source>the link has an unknown part “%1” (is the key percent-encoded?)</source>
        <translation>el enlace tiene una parte desconocida «%1» (¿la clave usa codificación por porcentaje?)</translation>
    </message>
    <message>
        <source>the link gives “%1” twice</source>
        <translation>el enlace indica «%1» dos veces</translation>
    </message>
    <message>
        <source>the invite token is longer than %1 characters</source>
        <translation>el token de invitación supera los %1 caracteres</translation>
    </message>
    <message>
        <source>the invite token may hold only visible ASCII characters</source>
        <translation>el token de invitación solo puede contener caracteres ASCII visibles</translation>
    </message>
    <message>
        <source>the link has an empty invite token</source>
        <translation>el enlace tiene un token de invitación vacío</translation>
    </message>
</context>
<context>
    <name>rookery::ui::LanguageChooser</name>
    <message>
        <source>&amp;Language:</source>
        <translation>&amp;Idioma:</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Idioma</translation>
    </message>
    <message>
        <source>The system&apos;s (%1)</source>
        <translation>La del sistema (%1)</translation>
    </message>
    <message>
        <source>Applies when Rookery starts again.</source>
        <translation>Se aplica cuando Rookery vuelva a iniciarse.</translation>
    </message>
</context>
<context>
    <name>rookery::ui::MainWindow</name>
    <message>
        <source>Rookery</source>
        <translation>Rookery</translation>
    </message>
    <message>
        <source>Rookery logo</source>
        <translation>Logotipo de Rookery</translation>
    </message>
    <message>
        <source>Lend this PC to a swarm of volunteers training a neural network together.</source>
        <translation>Presta este PC a un enjambre de voluntarios que entrenan juntos una red neuronal.</translation>
    </message>
    <message>
        <source>Starts or pauses this PC&apos;s contribution to the training</source>
        <translation>Inicia o pausa la contribución de este PC al entrenamiento</translation>
    </message>
    <message>
        <source>rookery-node refused: %1</source>
        <translation>rookery-node lo rechazó: %1</translation>
    </message>
    <message>
        <source>Started rookery-node (process %1)</source>
        <translation>rookery-node iniciado (proceso %1)</translation>
    </message>
    <message>
        <source>rookery-node %1 · process %2 · data in %3</source>
        <translation>rookery-node %1 · proceso %2 · datos en %3</translation>
    </message>
    <message>
        <source>rookery-node stopped</source>
        <translation>rookery-node se detuvo</translation>
    </message>
    <message>
        <source>Starting rookery-node…</source>
        <translation>Iniciando rookery-node…</translation>
    </message>
    <message>
        <source>Connecting to rookery-node…</source>
        <translation>Conectando con rookery-node…</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>Deteniendo…</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pausar</translation>
    </message>
    <message>
        <source>Contribute</source>
        <translation>Contribuir</translation>
    </message>
    <message>
        <source>Rookery is still running</source>
        <translation>Rookery sigue en ejecución</translation>
    </message>
    <message>
        <source>Rookery keeps working in the tray. Use its menu to pause or quit.</source>
        <translation>Rookery sigue trabajando en la bandeja del sistema. Usa su menú para pausar o salir.</translation>
    </message>
    <message>
        <source>Rookery keeps contributing</source>
        <translation>Rookery sigue contribuyendo</translation>
    </message>
    <message>
        <source>This PC goes on contributing in the background. Open Rookery again to pause it or to quit.</source>
        <translation>Este PC sigue contribuyendo en segundo plano. Vuelve a abrir Rookery para pausarlo o salir.</translation>
    </message>
    <message>
        <source>Stopping rookery-node: it finishes its current work unit and saves…</source>
        <translation>Deteniendo rookery-node: termina la unidad de trabajo actual y guarda…</translation>
    </message>
    <message>
        <source>Close Now</source>
        <translation>Cerrar ahora</translation>
    </message>
    <message>
        <source>Quitting Rookery</source>
        <translation>Saliendo de Rookery</translation>
    </message>
    <message>
        <source>Notice</source>
        <translation>Aviso</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>Ajustes…</translation>
    </message>
    <message>
        <source>How much of this PC Rookery may use, while you use it and while it is idle</source>
        <translation>Cuánto de este PC puede usar Rookery mientras lo usas y mientras está inactivo</translation>
    </message>
    <message>
        <source>Settings are kept by rookery-node, which does not answer: %1</source>
        <translation>Los ajustes los guarda rookery-node, que no responde: %1</translation>
    </message>
    <message>
        <source>Restarting rookery-node with its data in %1…</source>
        <translation>Reiniciando rookery-node con sus datos en %1…</translation>
    </message>
    <message>
        <source>This PC left the job. Open an invite link to join a swarm again.</source>
        <translation>Este PC dejó el trabajo. Abra un enlace de invitación para volver a unirse a un enjambre.</translation>
    </message>
    <message>
        <source>Restarting rookery-node to find out how it is reached…</source>
        <translation>Reiniciando rookery-node para averiguar cómo se le alcanza…</translation>
    </message>
    <message>
        <source>Restarting rookery-node to be reached at %1…</source>
        <translation>Reiniciando rookery-node para ser alcanzable en %1…</translation>
    </message>
</context>
<context>
    <name>rookery::ui::NodeConnection</name>
    <message>
        <source>rookery-node stopped</source>
        <translation>rookery-node se detuvo</translation>
    </message>
    <message>
        <source>rookery-node does not answer</source>
        <translation>rookery-node no responde</translation>
    </message>
    <message>
        <source>rookery-node is not running</source>
        <translation>rookery-node no se está ejecutando</translation>
    </message>
</context>
<context>
    <name>rookery::ui::NodeLauncher</name>
    <message>
        <source>rookery-node (process %1) is running but does not answer</source>
        <translation>rookery-node (proceso %1) está en ejecución pero no responde</translation>
    </message>
    <message>
        <source>rookery-node was not found; set ROOKERY_NODE_BIN or install it beside rookery</source>
        <translation>No se encontró rookery-node; define ROOKERY_NODE_BIN o instálalo junto a rookery</translation>
    </message>
    <message>
        <source>rookery-node did not start after %1 attempts; see its log</source>
        <translation>rookery-node no arrancó tras %1 intentos; consulta su registro</translation>
    </message>
    <message>
        <source>could not start %1: %2</source>
        <translation>no se pudo iniciar %1: %2</translation>
    </message>
    <message>
        <source>rookery-node (process %1) does not answer</source>
        <translation>rookery-node (proceso %1) no responde</translation>
    </message>
    <message>
        <source>rookery-node stopped right after starting; see its log</source>
        <translation>rookery-node se detuvo justo después de arrancar; consulta su registro</translation>
    </message>
</context>
<context>
    <name>rookery::ui::NodeStateCard</name>
    <message>
        <source>Node</source>
        <translation>Nodo</translation>
    </message>
    <message>
        <source>Node state</source>
        <translation>Estado del nodo</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>Motivo</translation>
    </message>
    <message>
        <source>Work units</source>
        <translation>Unidades de trabajo</translation>
    </message>
    <message>
        <source>Work done</source>
        <translation>Trabajo realizado</translation>
    </message>
    <message>
        <source>Current speed</source>
        <translation>Velocidad actual</translation>
    </message>
    <message>
        <source>Running for</source>
        <translation>En ejecución desde hace</translation>
    </message>
    <message>
        <source>Coordinator</source>
        <translation>Coordinador</translation>
    </message>
    <message>
        <source>Connecting to rookery-node…</source>
        <translation>Conectando con rookery-node…</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>inactivo</translation>
    </message>
    <message>
        <source>none: computing a local benchmark workload</source>
        <translation>ninguno: calcula una carga de prueba local</translation>
    </message>
    <message>
        <source>%1 (%2 ms)</source>
        <translation>%1 (%2 ms)</translation>
    </message>
    <message>
        <source>none: training a stage of a fixed pipeline plan</source>
        <translation>ninguno: entrena una etapa de un plan de canalización fijo</translation>
    </message>
    <message>
        <source>Allowed</source>
        <translation>Permitido</translation>
    </message>
    <message>
        <source>Sensors</source>
        <translation>Sensores</translation>
    </message>
    <message numerus="yes">
        <source>%n thread(s)</source>
        <translation>
            <numerusform>%n hilo</numerusform>
            <numerusform>%n hilos</numerusform>
        </translation>
    </message>
    <message>
        <source>, %1% CPU time</source>
        <translation>, %1 % de tiempo de CPU</translation>
    </message>
    <message>
        <source>, upload %1 KiB/s</source>
        <translation>, subida %1 KiB/s</translation>
    </message>
    <message>
        <source>, download %1 KiB/s</source>
        <translation>, bajada %1 KiB/s</translation>
    </message>
    <message>
        <source> (in use)</source>
        <translation> (PC en uso)</translation>
    </message>
    <message>
        <source> (idle)</source>
        <translation> (PC inactivo)</translation>
    </message>
    <message>
        <source>; not available: %1</source>
        <translation>; no disponibles: %1</translation>
    </message>
    <message>
        <source>, </source>
        <translation>, </translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
</context>
<context>
    <name>rookery::ui::PipelineDiagram</name>
    <message>
        <source>Pipeline diagram</source>
        <translation>Diagrama de la canalización</translation>
    </message>
    <message>
        <source>This PC is not in a pipeline</source>
        <translation>Este PC no está en ninguna canalización</translation>
    </message>
    <message numerus="yes">
        <source>A pipeline of %n stage(s), from the data to the loss.</source>
        <translation>
            <numerusform>Una canalización de %n etapa, de los datos a la pérdida.</numerusform>
            <numerusform>Una canalización de %n etapas, de los datos a la pérdida.</numerusform>
        </translation>
    </message>
    <message>
        <source>This PC is stage %1 and holds %2.</source>
        <translation>Este PC es la etapa %1 y contiene %2.</translation>
    </message>
    <message>
        <source>data</source>
        <translation>datos</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>pérdida</translation>
    </message>
    <message>
        <source>Stage %1 · this PC</source>
        <translation>Etapa %1 · este PC</translation>
    </message>
    <message numerus="yes">
        <source>The swarm: %n pipeline(s).</source>
        <translation>
            <numerusform>El enjambre: %n canalización.</numerusform>
            <numerusform>El enjambre: %n canalizaciones.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Pipeline %1, this PC&apos;s: %n stage(s), %2 samples/s.</source>
        <translation>
            <numerusform>Canalización %1, la de este PC: %n etapa, %2 muestras/s.</numerusform>
            <numerusform>Canalización %1, la de este PC: %n etapas, %2 muestras/s.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Pipeline %1: %n stage(s), %2 samples/s.</source>
        <translation>
            <numerusform>Canalización %1: %n etapa, %2 muestras/s.</numerusform>
            <numerusform>Canalización %1: %n etapas, %2 muestras/s.</numerusform>
        </translation>
    </message>
    <message>
        <source>P%1</source>
        <translation>C%1</translation>
    </message>
    <message>
        <source>this PC · %1/s</source>
        <translation>este PC · %1/s</translation>
    </message>
    <message>
        <source>%1/s</source>
        <translation>%1/s</translation>
    </message>
    <message>
        <source>Stage %1</source>
        <translation>Etapa %1</translation>
    </message>
</context>
<context>
    <name>rookery::ui::PresenceReporter</name>
    <message>
        <source>this window&apos;s input only</source>
        <translation>solo la entrada en esta ventana</translation>
    </message>
    <message>
        <source>needs the X11 screensaver extension (libXss)</source>
        <translation>requiere la extensión de salvapantallas de X11 (libXss)</translation>
    </message>
    <message>
        <source>X11 screensaver extension</source>
        <translation>extensión de salvapantallas de X11</translation>
    </message>
    <message>
        <source>the active window&apos;s _NET_WM_STATE</source>
        <translation>_NET_WM_STATE de la ventana activa</translation>
    </message>
    <message>
        <source>the window manager does not report the active window</source>
        <translation>el gestor de ventanas no informa de la ventana activa</translation>
    </message>
    <message>
        <source>not an X11 session</source>
        <translation>no es una sesión X11</translation>
    </message>
</context>
<context>
    <name>rookery::ui::SettingsDialog</name>
    <message>
        <source>Rookery settings</source>
        <translation>Ajustes de Rookery</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>Este equipo</translation>
    </message>
    <message>
        <source>Start with my session</source>
        <translation>Iniciar con mi sesión</translation>
    </message>
    <message>
        <source>Open Rookery in the tray when you log in (%1)</source>
        <translation>Abrir Rookery en la bandeja del sistema al iniciar sesión (%1)</translation>
    </message>
    <message>
        <source>Snooze for an hour</source>
        <translation>Posponer una hora</translation>
    </message>
    <message>
        <source>While I use my PC</source>
        <translation>Mientras uso mi PC</translation>
    </message>
    <message>
        <source>While the PC is idle</source>
        <translation>Mientras el PC está inactivo</translation>
    </message>
    <message>
        <source>Always</source>
        <translation>Siempre</translation>
    </message>
    <message>
        <source>any time; e.g. mon-fri 18:00-08:00; weekends 00:00-24:00</source>
        <translation>en cualquier momento; p. ej. mon-fri 18:00-08:00; weekends 00:00-24:00</translation>
    </message>
    <message>
        <source>none; e.g. steam, blender</source>
        <translation>ninguno; p. ej. steam, blender</translation>
    </message>
    <message>
        <source>Default: %1</source>
        <translation>Predeterminado: %1</translation>
    </message>
    <message>
        <source>The node took your settings, but starting with your session could not be changed: %1</source>
        <translation>El nodo aceptó tus ajustes, pero no se pudo cambiar el inicio con tu sesión: %1</translation>
    </message>
    <message>
        <source>Starting with your session could not be changed: %1</source>
        <translation>No se pudo cambiar el inicio con tu sesión: %1</translation>
    </message>
    <message>
        <source>&amp;Data folder:</source>
        <translation>Carpeta de &amp;datos:</translation>
    </message>
    <message>
        <source>Data folder</source>
        <translation>Carpeta de datos</translation>
    </message>
    <message>
        <source>Where rookery-node keeps this PC&apos;s keys, its settings, the contribution ledger and checkpoints. Another folder starts afresh (a new identity, an empty ledger) unless you copy the old one there; the node restarts to use it.</source>
        <translation>Donde rookery-node guarda las claves de este PC, sus ajustes, el registro de contribuciones y los puntos de control. Otra carpeta empieza de cero (una identidad nueva, un registro vacío) salvo que copie allí la anterior; el nodo se reinicia para usarla.</translation>
    </message>
    <message>
        <source>C&amp;hoose…</source>
        <translation>&amp;Elegir…</translation>
    </message>
    <message>
        <source>Choose the data folder</source>
        <translation>Elegir la carpeta de datos</translation>
    </message>
    <message>
        <source>The swarm</source>
        <translation>El enjambre</translation>
    </message>
    <message>
        <source>&amp;Leave this job…</source>
        <translation>De&amp;jar este trabajo…</translation>
    </message>
    <message>
        <source>This PC stops training for the job for good: the coordinator plans without it at once</source>
        <translation>Este PC deja de entrenar para el trabajo definitivamente: el coordinador planifica sin él de inmediato</translation>
    </message>
    <message>
        <source>This PC volunteers for job “%1” at coordinator %2.</source>
        <translation>Este PC es voluntario del trabajo «%1» en el coordinador %2.</translation>
    </message>
    <message>
        <source>This PC talks to coordinator %1 but has joined none of its jobs.</source>
        <translation>Este PC habla con el coordinador %1 pero no se ha unido a ninguno de sus trabajos.</translation>
    </message>
    <message>
        <source>This PC trains a stage of a fixed pipeline plan, without a coordinator.</source>
        <translation>Este PC entrena una etapa de un plan de canalización fijo, sin coordinador.</translation>
    </message>
    <message>
        <source>This PC has joined no swarm: open an invite link to join one.</source>
        <translation>Este PC no se ha unido a ningún enjambre: abra un enlace de invitación para unirse a uno.</translation>
    </message>
    <message>
        <source>The data folder must be a full path, such as %1.</source>
        <translation>La carpeta de datos debe ser una ruta completa, como %1.</translation>
    </message>
    <message>
        <source>Rookery&apos;s data folder</source>
        <translation>Carpeta de datos de Rookery</translation>
    </message>
    <message>
        <source>Leave this job?</source>
        <translation>¿Dejar este trabajo?</translation>
    </message>
    <message>
        <source>This PC stops training for the job for good; its contribution so far stays counted. Rookery then joins no swarm until you open an invite link.</source>
        <translation>Este PC deja de entrenar para el trabajo definitivamente; su contribución hasta ahora sigue contando. Rookery no se unirá a ningún enjambre hasta que abra un enlace de invitación.</translation>
    </message>
    <message>
        <source>The node cannot leave the job: %1</source>
        <translation>El nodo no puede dejar el trabajo: %1</translation>
    </message>
    <message>
        <source>Leaving the job: the node finishes its work in progress, tells the coordinator and stops.</source>
        <translation>Dejando el trabajo: el nodo termina el trabajo en curso, avisa al coordinador y se detiene.</translation>
    </message>
    <message>
        <source>Reached at (e&amp;xperts):</source>
        <translation>Accesible en (e&amp;xpertos):</translation>
    </message>
    <message>
        <source>Address other PCs reach this one at</source>
        <translation>Dirección en la que otros PC llegan a este</translation>
    </message>
    <message>
        <source>found out by Rookery</source>
        <translation>la averigua Rookery</translation>
    </message>
    <message>
        <source>Leave empty: Rookery finds out how other PCs reach this one (through the home router, or a relay). An address here (a public IP address or host name of this PC) is used as it is, and the node listens only there; the node restarts to use it.</source>
        <translation>Déjelo vacío: Rookery averigua cómo llegan otros PC a este (a través del router de casa o de un relé). Una dirección aquí (una IP pública o un nombre de host de este PC) se usa tal cual, y el nodo escucha solo en ella; el nodo se reinicia para usarla.</translation>
    </message>
    <message>
        <source>“%1” is not an address: give an IP address (such as 203.0.113.7 or 2001:db8::7) or a host name, or leave it empty.</source>
        <translation>«%1» no es una dirección: indique una dirección IP (como 203.0.113.7 o 2001:db8::7) o un nombre de host, o déjelo vacío.</translation>
    </message>
</context>
<context>
    <name>rookery::ui::SingleInstance</name>
    <message>
        <source>cannot create %1</source>
        <translation>no se puede crear %1</translation>
    </message>
    <message>
        <source>Rookery is already running (process %1) but does not answer</source>
        <translation>Rookery ya está en ejecución (proceso %1) pero no responde</translation>
    </message>
    <message>
        <source>Rookery is already running but does not answer</source>
        <translation>Rookery ya está en ejecución pero no responde</translation>
    </message>
    <message>
        <source>cannot listen on %1: %2</source>
        <translation>no se puede escuchar en %1: %2</translation>
    </message>
</context>
<context>
    <name>rookery::ui::SwarmCard</name>
    <message>
        <source>Your place in the swarm</source>
        <translation>Tu lugar en el enjambre</translation>
    </message>
    <message>
        <source>Job</source>
        <translation>Trabajo</translation>
    </message>
    <message>
        <source>Place in the pipeline</source>
        <translation>Lugar en la canalización</translation>
    </message>
    <message>
        <source>Receives from</source>
        <translation>Recibe de</translation>
    </message>
    <message>
        <source>Sends to</source>
        <translation>Envía a</translation>
    </message>
    <message>
        <source>In flight</source>
        <translation>En curso</translation>
    </message>
    <message>
        <source>Weight versions</source>
        <translation>Versiones de pesos</translation>
    </message>
    <message>
        <source>Dropped · rejected</source>
        <translation>Descartados · rechazados</translation>
    </message>
    <message>
        <source>Sent to peers</source>
        <translation>Enviado a los pares</translation>
    </message>
    <message>
        <source>Ring partners</source>
        <translation>Compañeros de anillo</translation>
    </message>
    <message>
        <source>none: no other pipeline averages with this one</source>
        <translation>ninguno: ninguna otra canalización promedia con esta</translation>
    </message>
    <message>
        <source>pipeline %1 · %2 · %3 values shared</source>
        <translation>canalización %1 · %2 · %3 valores compartidos</translation>
    </message>
    <message>
        <source>%1 · excluded</source>
        <translation>%1 · excluido</translation>
    </message>
    <message>
        <source>Not in a pipeline yet</source>
        <translation>Aún no está en una canalización</translation>
    </message>
    <message>
        <source>Contributing benchmark work</source>
        <translation>Contribuyendo con trabajo de prueba</translation>
    </message>
    <message>
        <source>Benchmark work only</source>
        <translation>Solo trabajo de prueba</translation>
    </message>
    <message>
        <source>This PC computes a benchmark workload until a coordinator places it in a pipeline.</source>
        <translation>Este PC calcula una carga de prueba hasta que un coordinador lo coloque en una canalización.</translation>
    </message>
    <message>
        <source>When you contribute, this PC computes a benchmark workload until a coordinator places it in a pipeline.</source>
        <translation>Cuando contribuyes, este PC calcula una carga de prueba hasta que un coordinador lo coloque en una canalización.</translation>
    </message>
    <message>
        <source>Job %1</source>
        <translation>Trabajo %1</translation>
    </message>
    <message>
        <source>Pipeline %1 · stage %2 of %3 · %4</source>
        <translation>Canalización %1 · etapa %2 de %3 · %4</translation>
    </message>
    <message>
        <source>the dataset (first stage)</source>
        <translation>el conjunto de datos (primera etapa)</translation>
    </message>
    <message>
        <source>nobody: computes the loss (last stage)</source>
        <translation>nadie: calcula la pérdida (última etapa)</translation>
    </message>
    <message numerus="yes">
        <source>%n micro-batch(es)</source>
        <translation>
            <numerusform>%n microlote</numerusform>
            <numerusform>%n microlotes</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 stashed · %2</source>
        <translation>%1 guardadas · %2</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>Dropped: micro-batches whose gradient did not come back in time. Rejected: messages that did not match what this stage expected.</source>
        <translation>Descartados: microlotes cuyo gradiente no volvió a tiempo. Rechazados: mensajes que no coincidían con lo que esta etapa esperaba.</translation>
    </message>
    <message>
        <source>Fed every micro-batch it was asked to; none is in flight.</source>
        <translation>Se entregaron todos los microlotes pedidos; no queda ninguno en curso.</translation>
    </message>
    <message>
        <source>Waiting for rookery-node</source>
        <translation>Esperando a rookery-node</translation>
    </message>
    <message>
        <source>The swarm is shown once rookery-node answers.</source>
        <translation>El enjambre aparecerá en cuanto responda rookery-node.</translation>
    </message>
    <message>
        <source>The swarm</source>
        <translation>El enjambre</translation>
    </message>
    <message>
        <source>Your rank</source>
        <translation>Tu puesto</translation>
    </message>
    <message>
        <source>The run&apos;s loss</source>
        <translation>Pérdida del entrenamiento</translation>
    </message>
    <message numerus="yes">
        <source>%n volunteer(s) in %1 · %2 samples/s</source>
        <translation>
            <numerusform>%n voluntario en %1 · %2 muestras/s</numerusform>
            <numerusform>%n voluntarios en %1 · %2 muestras/s</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n pipeline(s)</source>
        <translation>
            <numerusform>%n canalización</numerusform>
            <numerusform>%n canalizaciones</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Plan %1 from the coordinator; it has re-planned %n time(s) as volunteers came and went.</source>
        <translation>
            <numerusform>Plan %1 del coordinador; ha replanificado %n vez a medida que llegaban y se iban voluntarios.</numerusform>
            <numerusform>Plan %1 del coordinador; ha replanificado %n veces a medida que llegaban y se iban voluntarios.</numerusform>
        </translation>
    </message>
    <message>
        <source>not ranked yet</source>
        <translation>aún sin puesto</translation>
    </message>
    <message>
        <source>#%1 of %2 by confirmed samples (%3)</source>
        <translation>n.º %1 de %2 por muestras confirmadas (%3)</translation>
    </message>
    <message>
        <source>The stages that received this PC&apos;s work confirmed %1 of the %2 samples it did; the run credits only confirmed work.</source>
        <translation>Las etapas que recibieron el trabajo de este PC confirmaron %1 de las %2 muestras que hizo; la ejecución solo acredita el trabajo confirmado.</translation>
    </message>
    <message>
        <source>%1 (from %2)</source>
        <translation>%1 (desde %2)</translation>
    </message>
    <message>
        <source>no loss reported yet</source>
        <translation>aún no se ha comunicado ninguna pérdida</translation>
    </message>
    <message>
        <source>minutes</source>
        <translation>minutos</translation>
    </message>
    <message>
        <source>The run&apos;s loss curve</source>
        <translation>Curva de pérdida del entrenamiento</translation>
    </message>
    <message>
        <source>The run&apos;s loss went from %1 to %2 in %3</source>
        <translation>La pérdida del entrenamiento pasó de %1 a %2 en %3</translation>
    </message>
    <message>
        <source>How peers reach this PC</source>
        <translation>Cómo llegan los pares a este PC</translation>
    </message>
    <message>
        <source>Model archive</source>
        <translation>Archivo del modelo</translation>
    </message>
    <message>
        <source>Held-out loss</source>
        <translation>Pérdida en datos reservados</translation>
    </message>
    <message>
        <source>its held-out loss is %1</source>
        <translation>su pérdida en datos reservados es %1</translation>
    </message>
    <message>
        <source>held-out %1</source>
        <translation>reservados %1</translation>
    </message>
    <message>
        <source>no snapshot yet</source>
        <translation>aún sin instantánea</translation>
    </message>
    <message>
        <source>The coordinator keeps snapshots of the whole model, collected from the volunteers who train it.</source>
        <translation>El coordinador guarda instantáneas del modelo completo, reunidas de los voluntarios que lo entrenan.</translation>
    </message>
    <message>
        <source>snapshot %1, %2 ago</source>
        <translation>instantánea %1, hace %2</translation>
    </message>
    <message>
        <source>Blocks %1–%2 came back from snapshot %3, %4 ago: no volunteer held them.</source>
        <translation>Los bloques %1–%2 volvieron de la instantánea %3 hace %4: ningún voluntario los tenía.</translation>
    </message>
    <message>
        <source>blocks %1–%2 restored from snapshot %3</source>
        <translation>bloques %1–%2 restaurados de la instantánea %3</translation>
    </message>
</context>
<context>
    <name>rookery::ui::TrainingCard</name>
    <message>
        <source>Training</source>
        <translation>Entrenamiento</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>Pérdida</translation>
    </message>
    <message>
        <source>Moving average</source>
        <translation>Media móvil</translation>
    </message>
    <message>
        <source>micro-batches</source>
        <translation>microlotes</translation>
    </message>
    <message>
        <source>Loss chart</source>
        <translation>Gráfico de la pérdida</translation>
    </message>
    <message>
        <source>Loss of each micro-batch this stage completed (faint) and its moving average</source>
        <translation>Pérdida de cada microlote que completó esta etapa (tenue) y su media móvil</translation>
    </message>
    <message>
        <source>Samples</source>
        <translation>Muestras</translation>
    </message>
    <message>
        <source>Speed</source>
        <translation>Velocidad</translation>
    </message>
    <message>
        <source>Optimizer steps</source>
        <translation>Pasos del optimizador</translation>
    </message>
    <message>
        <source>No model to train yet: the loss curve appears here once this PC trains a stage of a pipeline.</source>
        <translation>Aún no hay modelo que entrenar: la curva de pérdida aparecerá aquí cuando este PC entrene una etapa de una canalización.</translation>
    </message>
    <message>
        <source>Waiting for the first micro-batch to come back through the pipeline…</source>
        <translation>Esperando a que el primer microlote vuelva por la canalización…</translation>
    </message>
    <message>
        <source>Press Contribute to train: the loss curve appears here.</source>
        <translation>Pulsa «Contribuir» para entrenar: la curva de pérdida aparecerá aquí.</translation>
    </message>
    <message>
        <source>%1 · average %2</source>
        <translation>%1 · media %2</translation>
    </message>
    <message>
        <source>none yet</source>
        <translation>aún ninguna</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>inactivo</translation>
    </message>
    <message>
        <source>The training is shown once rookery-node answers.</source>
        <translation>El entrenamiento aparecerá en cuanto responda rookery-node.</translation>
    </message>
    <message>
        <source>No loss yet</source>
        <translation>Aún no hay pérdida</translation>
    </message>
    <message>
        <source>Loss %1 after %2 micro-batches; %3 at micro-batch %4</source>
        <translation>Pérdida %1 tras %2 microlotes; %3 en el microlote %4</translation>
    </message>
    <message>
        <source>What the run&apos;s model writes</source>
        <translation>Lo que escribe el modelo del entrenamiento</translation>
    </message>
    <message>
        <source>What the run&apos;s model predicts (snapshot %1, held-out loss %2, accuracy %3)</source>
        <translation>Lo que predice el modelo del entrenamiento (instantánea %1, pérdida en datos reservados %2, precisión %3)</translation>
    </message>
    <message>
        <source>%1 as %2</source>
        <translation>%1 como %2</translation>
    </message>
    <message>
        <source>%1 of %2 held-out images right: %3</source>
        <translation>%1 de %2 imágenes reservadas acertadas: %3</translation>
    </message>
    <message>
        <source>What the run&apos;s model writes (snapshot %1, held-out loss %2)</source>
        <translation>Lo que escribe el modelo del entrenamiento (instantánea %1, pérdida en datos reservados %2)</translation>
    </message>
</context>
<context>
    <name>rookery::ui::TrayIcon</name>
    <message>
        <source>Rookery tray menu</source>
        <translation>Menú de Rookery en la bandeja</translation>
    </message>
    <message>
        <source>Contribute</source>
        <translation>Contribuir</translation>
    </message>
    <message>
        <source>Open Rookery</source>
        <translation>Abrir Rookery</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Salir</translation>
    </message>
    <message>
        <source>Stop contributing, stop rookery-node and close Rookery</source>
        <translation>Dejar de contribuir, detener rookery-node y cerrar Rookery</translation>
    </message>
    <message>
        <source>Rookery</source>
        <translation>Rookery</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pausar</translation>
    </message>
    <message>
        <source>Rookery: %1</source>
        <translation>Rookery: %1</translation>
    </message>
    <message>
        <source>Rookery: the disk is full</source>
        <translation>Rookery: el disco está lleno</translation>
    </message>
    <message>
        <source>rookery-node cannot save its work: %1. Free some disk space on this PC, then start Rookery again.</source>
        <translation>rookery-node no puede guardar su trabajo: %1. Libera espacio en el disco de este PC y vuelve a iniciar Rookery.</translation>
    </message>
    <message>
        <source>Rookery stopped contributing</source>
        <translation>Rookery ha dejado de contribuir</translation>
    </message>
    <message>
        <source>rookery-node reports an error: %1</source>
        <translation>rookery-node informa de un error: %1</translation>
    </message>
    <message>
        <source>The coordinator refused this PC</source>
        <translation>El coordinador rechazó este PC</translation>
    </message>
    <message>
        <source>The training job ended</source>
        <translation>El trabajo de entrenamiento ha terminado</translation>
    </message>
    <message>
        <source>This PC has nothing more to do for its job. Thank you for contributing!</source>
        <translation>Este PC ya no tiene nada que hacer para su trabajo. ¡Gracias por contribuir!</translation>
    </message>
    <message>
        <source>“%1” has ended: this PC has nothing more to do for it. Thank you for contributing!</source>
        <translation>«%1» ha terminado: este PC ya no tiene nada que hacer para él. ¡Gracias por contribuir!</translation>
    </message>
    <message>
        <source>rookery-node cannot record your contribution: %1. Free some disk space on this PC; the work done meanwhile is written once there is room.</source>
        <translation>rookery-node no puede registrar tu contribución: %1. Libera espacio en el disco de este PC; el trabajo hecho mientras tanto se guardará en cuanto haya sitio.</translation>
    </message>
    <message>
        <source>Snooze for an hour</source>
        <translation>Posponer una hora</translation>
    </message>
    <message>
        <source>End the snooze</source>
        <translation>Reanudar ahora</translation>
    </message>
    <message>
        <source>The coordinator banned this PC</source>
        <translation>El coordinador excluyó este PC</translation>
    </message>
    <message>
        <source>Banned from the job: %1. This PC no longer trains with the swarm; open Rookery for details.</source>
        <translation>Excluido del trabajo: %1. Este PC ya no entrena con el enjambre; abra Rookery para ver los detalles.</translation>
    </message>
    <message>
        <source>Refused: %1. This PC no longer trains with the swarm; open Rookery for details.</source>
        <translation>Rechazado: %1. Este PC ya no entrena con el enjambre; abra Rookery para ver los detalles.</translation>
    </message>
</context>
</TS>
